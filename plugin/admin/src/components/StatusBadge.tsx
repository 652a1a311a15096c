/** A coloured label; the text carries the meaning, the colour only repeats it. */
export type Tone = 'success' | 'error' | 'warning' | 'info' | 'neutral';

export function StatusBadge( { tone, children }: { tone: Tone; children: React.ReactNode } ) {
	return <span className={ `si-badge si-badge--${ tone }` }>{ children }</span>;
}
