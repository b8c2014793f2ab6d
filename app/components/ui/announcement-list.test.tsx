import { describe, expect, it } from "vitest";
import { renderHtml } from "../../../tests/support/render-html";
import { AnnouncementList } from "./announcement-list";
import type { ShownAnnouncement } from "~/domain/announcements/announcements";

const announcements: ShownAnnouncement[] = [
  { id: 3, title: "Maintenance tonight", content: "Line one\nLine two", type: "warning" },
  { id: 2, title: "مرحبا بكم", content: "نص الإعلان", type: "success" },
  { id: 1, title: "New plans", content: "VPS plans are here", type: "info" },
];

function render(list: ShownAnnouncement[], locale: "en" | "ar" = "en") {
  return renderHtml(
    <AnnouncementList announcements={list} label="Announcements" className="pt-4" />,
    locale,
  );
}

function items(html: string) {
  return [...html.matchAll(/<li [^>]*>[\s\S]*?<\/li>/g)].map((match) => match[0]);
}

describe("AnnouncementList", () => {
  it("renders nothing when there is no announcement", async () => {
    expect(await render([])).toBe("");
  });

  it("is a named region with one item per announcement, in the order given", async () => {
    const html = await render(announcements);
    expect(html).toMatch(
      /^<section aria-label="Announcements" class="pt-4"><ul class="grid gap-3">/,
    );
    const list = items(html);
    expect(list).toHaveLength(3);
    expect(list.map((item) => /data-announcement-type="(\w+)"/.exec(item)?.[1])).toEqual([
      "warning",
      "success",
      "info",
    ]);
  });

  it("gives each type its colour, its icon and its name for screen readers", async () => {
    const [warning, success, info] = items(await render(announcements));
    expect(warning).toContain("border-yellow-500");
    expect(warning).toContain('<span class="sr-only">Warning</span>');
    expect(warning).toContain("lucide-triangle-alert");
    expect(success).toContain("border-green-600");
    expect(success).toContain('<span class="sr-only">Good news</span>');
    expect(success).toContain("lucide-circle-check");
    expect(info).toContain("border-primary");
    expect(info).toContain('<span class="sr-only">Info</span>');
    expect(info).toContain("lucide-info");
    // The icons are decoration: the name says the type.
    for (const item of [warning, success, info])
      expect(item).toMatch(/<svg[^>]*aria-hidden="true"/);
  });

  it("writes the admin's title and text in their own direction, line breaks kept", async () => {
    const [warning, success] = items(await render(announcements));
    expect(warning).toContain(
      '<p class="font-semibold break-words" dir="auto">Maintenance tonight</p>',
    );
    expect(warning).toContain(
      '<p class="text-sm break-words whitespace-pre-wrap" dir="auto">Line one\nLine two</p>',
    );
    expect(success).toContain('dir="auto">مرحبا بكم</p>');
    // The type's name sits outside the text whose direction the browser works out.
    expect(success).toMatch(/<span class="sr-only">[^<]+<\/span><p[^>]*dir="auto">مرحبا بكم/);
  });

  it("names the types in the page's language", async () => {
    const html = await render(announcements, "ar");
    expect(html).toContain('<span class="sr-only">تنبيه</span>');
    expect(html).toContain('<span class="sr-only">خبر سار</span>');
  });
});
