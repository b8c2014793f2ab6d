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

  it.each([
    ["warning", 0, "border-yellow-500", "Warning", "lucide-triangle-alert"],
    ["success", 1, "border-green-600", "Good news", "lucide-circle-check"],
    ["info", 2, "border-primary", "Info", "lucide-info"],
  ])(
    "gives the %s type its colour, its icon and its name for screen readers",
    async (_type, at, colour, name, icon) => {
      const item = items(await render(announcements))[at];
      expect(item).toContain(colour);
      expect(item).toContain(`<span class="sr-only">${name}</span>`);
      expect(item).toContain(icon);
      // The icon is decoration: the name says the type.
      expect(item).toMatch(/<svg[^>]*aria-hidden="true"/);
    },
  );

  it("writes the admin's title and text in their own direction, line breaks kept", async () => {
    const [warning, success] = items(await render(announcements));
    expect(warning).toContain(
      '<p class="font-semibold wrap-anywhere" dir="auto">Maintenance tonight</p>',
    );
    expect(warning).toContain(
      '<p class="text-sm whitespace-pre-wrap wrap-anywhere" dir="auto">Line one\nLine two</p>',
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
