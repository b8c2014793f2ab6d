import { revealFormResult } from "./form-result";

// A form posted from a page served without React is a plain page load: the answer arrives as a new page,
// at its top, with the focus on nothing. When the page holds an outcome or a refused field, it is
// brought into view and focused, as useRevealFormResults does on a hydrated page.
export function enhanceFormResults(document: Document) {
  revealFormResult(document);
}
