import { createElement, renderToString } from '@wordpress/element';
import { DataTable, type Column } from '../../../plugin/admin/src/components/DataTable';

interface Row {
	name: string;
	state: string;
	open: boolean;
}

const columns: Column< Row >[] = [
	{ label: 'Capability', rowHeader: true, render: ( row ) => row.name },
	{ label: 'State', className: 'si-state', render: ( row ) => row.state },
];
const rows: Row[] = [
	{ name: 'read', state: 'granted', open: false },
	{ name: 'edit_posts', state: 'denied', open: true },
];

/** The cells of the table's body, in order: tag, attributes and text. */
function bodyCells( html: string ): { tag: string; attributes: string; text: string }[] {
	const body = html.slice( html.indexOf( '<tbody>' ), html.indexOf( '</tbody>' ) );
	return Array.from( body.matchAll( /<(td|th)([^>]*)>(.*?)<\/\1>/g ), ( match ) => ( {
		tag: match[ 1 ] as string,
		attributes: match[ 2 ] as string,
		text: match[ 3 ] as string,
	} ) );
}

/** A table's cells carry their column's name as rendered markup, for the card layout at narrow widths. */
describe( 'DataTable', () => {
	const html = renderToString(
		createElement( DataTable< Row >, {
			caption: 'Capabilities',
			className: 'si-capabilities',
			columns,
			rows,
			rowKey: ( row: Row ) => row.name,
			rowAttributes: ( row: Row ) => ( { 'data-name': row.name } ),
			details: ( row: Row ) => ( row.open ? `details of ${ row.name }` : null ),
		} )
	);

	test( 'every body cell is named after its column header; a row header is a th scoped to its row', () => {
		const headers = Array.from( html.matchAll( /<th scope="col">(.*?)<\/th>/g ), ( match ) => match[ 1 ] );
		expect( headers ).toEqual( [ 'Capability', 'State' ] );
		const cells = bodyCells( html ).filter( ( cell ) => ! cell.attributes.includes( 'colspan' ) );
		expect(
			cells.map( ( cell ) => [ cell.tag, /data-colname="([^"]*)"/.exec( cell.attributes )?.[ 1 ], cell.text ] )
		).toEqual( [
			[ 'th', 'Capability', 'read' ],
			[ 'td', 'State', 'granted' ],
			[ 'th', 'Capability', 'edit_posts' ],
			[ 'td', 'State', 'denied' ],
		] );
		expect( cells[ 0 ]?.attributes ).toContain( 'scope="row"' );
		expect( cells[ 1 ]?.attributes ).toContain( 'class="si-state"' );
	} );

	test( 'an opened row is followed by an unnamed details cell across every column', () => {
		const details = bodyCells( html ).filter( ( cell ) => cell.attributes.includes( 'colspan' ) );
		expect( details ).toEqual( [ { tag: 'td', attributes: ' colspan="2"', text: 'details of edit_posts' } ] );
		expect( html ).toContain( '<tr class="si-details-row">' );
	} );

	test( 'rows carry their attributes; the table is named by its caption', () => {
		expect( html ).toContain( '<tr data-name="read">' );
		expect( html ).toContain( 'aria-label="Capabilities"' );
		expect( html ).toContain( '<caption class="screen-reader-text">Capabilities</caption>' );
		expect( html ).toContain( 'class="widefat striped si-table si-capabilities"' );
	} );
} );
