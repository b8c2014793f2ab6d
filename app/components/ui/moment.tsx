/** A moment as a `<time>`: its ISO 8601 value for machines, written for the reader by `format`. */
export function Moment({ at, format }: { at: string; format: Intl.DateTimeFormat }) {
  return <time dateTime={at}>{format.format(new Date(at))}</time>;
}
