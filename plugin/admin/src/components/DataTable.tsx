import { Fragment } from '@wordpress/element';

/** One column: its header, and how a row's cell is drawn. */
export interface Column< Item > {
	/** The header, and the name each of its cells carries (`data-colname`) for the card layout. */
	label: string;
	render: ( item: Item ) => React.ReactNode;
	/** The cells' class, for styles and tests (e.g. `si-cell-url`). */
	className?: string;
	/** The cell names its row (`<th scope="row">`), as a capability's name does. */
	rowHeader?: boolean;
}

/** Attributes of a row: a class and the `data-*` the tests and styles find it by. */
export type RowAttributes = { className?: string } & { [ name: `data-${ string }` ]: string | number | undefined };

interface Props< Item > {
	caption: string;
	className?: string;
	columns: Column< Item >[];
	rows: readonly Item[];
	rowKey: ( item: Item, index: number ) => string | number;
	rowAttributes?: ( item: Item ) => RowAttributes;
	/** What opens under a row across every column (its attempts, say), or null. */
	details?: ( item: Item ) => React.ReactNode;
}

/**
 * A wp-admin table, named by its caption. Wide screens see a table that scrolls sideways on
 * its own when it must (keyboard-scrollable; the page never does); narrow ones see each row
 * as a card, every value under its column's name (admin.css reads `data-colname`, as core's
 * list tables do). A details row spans the columns and is left unnamed.
 */
export function DataTable< Item >( {
	caption,
	className,
	columns,
	rows,
	rowKey,
	rowAttributes,
	details,
}: Props< Item > ) {
	return (
		<div className="si-table-scroll" role="region" aria-label={ caption } tabIndex={ 0 }>
			<table className={ `widefat striped si-table ${ className ?? '' }` }>
				<caption className="screen-reader-text">{ caption }</caption>
				<thead>
					<tr>
						{ columns.map( ( column ) => (
							<th key={ column.label } scope="col">
								{ column.label }
							</th>
						) ) }
					</tr>
				</thead>
				<tbody>
					{ rows.map( ( item, index ) => {
						const opened = details?.( item );
						return (
							<Fragment key={ rowKey( item, index ) }>
								<tr { ...rowAttributes?.( item ) }>
									{ columns.map( ( column ) => {
										const Cell = column.rowHeader ? 'th' : 'td';
										return (
											<Cell
												key={ column.label }
												scope={ column.rowHeader ? 'row' : undefined }
												className={ column.className }
												data-colname={ column.label }
											>
												{ column.render( item ) }
											</Cell>
										);
									} ) }
								</tr>
								{ opened ? (
									<tr className="si-details-row">
										<td colSpan={ columns.length }>{ opened }</td>
									</tr>
								) : null }
							</Fragment>
						);
					} ) }
				</tbody>
			</table>
		</div>
	);
}
