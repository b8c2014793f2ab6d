// negotiator 0.6.4, the version the compression middleware negotiates with. Its own types
// (@types/negotiator) leave out the second argument of `encoding`, the encodings preferred on a tie,
// which the middleware passes and page-compression.server.ts must pass alike.
declare module "negotiator" {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | undefined> });
    encoding(available: string[], preferred?: string[]): string | undefined;
  }
}
