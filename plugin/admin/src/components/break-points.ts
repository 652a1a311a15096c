/**
 * Where a code, id or URL may wrap: after a run of / . _ - ? & = (and nowhere else; see
 * `.si-app code` in admin.css). Pure, so the unit tests run it without a browser.
 */
const SEPARATORS = /(?<=[/._\-?&=])(?=[^/._\-?&=])/;

/** The text cut after each run of separators: `a/b.c` → `a/`, `b.`, `c`. Joined, the pieces are the text. */
export function breakSegments( text: string ): string[] {
	return text === '' ? [ '' ] : text.split( SEPARATORS );
}
