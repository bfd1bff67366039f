/**
 * Characters no text a person types holds (issue 17 item 6, decision 018): the C0 controls other than
 * tab, line feed and carriage return, DEL and the C1 controls. PostgreSQL refuses NUL in text outright
 * (a 500 before this rule), and none of them means anything in a search, a name or a post. The API
 * refuses them in a query or a JSON body (400 `invalidCharacters`); the app drops them from a search text.
 */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const CONTROL_CHARACTERS_ALL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

export function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARACTERS.test(text);
}

export function stripControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS_ALL, "");
}
