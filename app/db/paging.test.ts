import { describe, expect, it } from "vitest";
import { pageWindow } from "./paging";

describe("pageWindow", () => {
  it("gives the rows of a page counted from 1, the domain's size unless the request names one", () => {
    expect(pageWindow({ page: 1 }, 25)).toEqual({ limit: 25, offset: 0 });
    expect(pageWindow({ page: 3 }, 25)).toEqual({ limit: 25, offset: 50 });
    expect(pageWindow({ page: 2, pageSize: 3 }, 25)).toEqual({ limit: 3, offset: 3 });
    expect(pageWindow({ page: 1, pageSize: 5 }, 20)).toEqual({ limit: 5, offset: 0 });
  });
});
