import type { ReactNode } from 'react';
/**
 * A wp-admin table that scrolls sideways on its own at narrow widths (the page never
 * does), keyboard-scrollable, named by its caption.
 */
export function ResponsiveTable( {
	caption,
	className,
	children,
}: {
	caption: string;
	className?: string;
	children: ReactNode;
} ) {
	return (
		<div className="si-table-scroll" role="region" aria-label={ caption } tabIndex={ 0 }>
			<table className={ `widefat striped si-table ${ className ?? '' }` }>
				<caption className="screen-reader-text">{ caption }</caption>
				{ children }
			</table>
		</div>
	);
}
