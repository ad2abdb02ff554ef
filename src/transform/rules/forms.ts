/** Contact, sign-up and login forms, and the labels of form controls: not content. */
import type { AttrSource } from '../html-util.js';

/**
 * A form with this many text-entry fields, little prose and little text is a contact, sign-up or
 * login form: its labels and hints are not content. (Some frameworks wrap the whole page in one
 * form; that one holds the page's text and stays.)
 */
export const FORM_MIN_FIELDS = 2;
export const FORM_MAX_PROSE = 200;
export const FORM_MAX_TEXT = 1000;
export const LABEL_MAX_TEXT = 200;

/** Input types a visitor types into; option pickers (a product's size, quantity) are not counted. */
const ENTRY_INPUTS: ReadonlySet<string> = new Set(['', 'text', 'email', 'tel', 'password', 'url']);

export function isEntryField(attrs: AttrSource): boolean {
  const t = attrs.get('type');
  return t === undefined || ENTRY_INPUTS.has(t.trim().toLowerCase());
}
