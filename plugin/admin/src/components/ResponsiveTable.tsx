import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * Gives every body cell the header of its column (`data-colname`), as core's list tables do,
 * so a narrow screen can show each row as a card with every column named (admin.css). Read
 * from the header row rather than passed in: the headers are written once, in the table.
 * A cell spanning columns (a details row) is left unnamed.
 */
function nameCells( table: HTMLTableElement ): void {
	const headers = Array.from( table.tHead?.rows[ 0 ]?.cells ?? [] ).map( ( cell ) => cell.textContent?.trim() ?? '' );
	for ( const body of Array.from( table.tBodies ) ) {
		for ( const row of Array.from( body.rows ) ) {
			Array.from( row.cells ).forEach( ( cell, index ) => {
				const name = cell.colSpan === 1 ? headers[ index ] : undefined;
				if ( name ) {
					cell.setAttribute( 'data-colname', name );
				} else {
					cell.removeAttribute( 'data-colname' );
				}
			} );
		}
	}
}

/**
 * A wp-admin table, named by its caption. Wide screens see a table that scrolls sideways on
 * its own when it must (keyboard-scrollable; the page never does); narrow ones see each row
 * as a card, every value under its column's name.
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
	const table = useRef< HTMLTableElement >( null );
	useLayoutEffect( () => {
		const element = table.current;
		if ( ! element ) {
			return undefined;
		}
		nameCells( element );
		// Rows a child renders on its own (a details row opening) are named as they come.
		const observer = new window.MutationObserver( () => nameCells( element ) );
		observer.observe( element, { childList: true, subtree: true } );
		return () => observer.disconnect();
	}, [] );
	return (
		<div className="si-table-scroll" role="region" aria-label={ caption } tabIndex={ 0 }>
			<table ref={ table } className={ `widefat striped si-table ${ className ?? '' }` }>
				<caption className="screen-reader-text">{ caption }</caption>
				{ children }
			</table>
		</div>
	);
}
