import type { Page } from 'playwright-core';
import { openSession, SETUP_TIMEOUT, shot, type AdminSession } from '../support/admin-page';
import { adminClient } from '../support/clients';
import { debugLogMark, phpProblemsSince } from '../support/debug-log';
import { setPluginActive } from '../support/plugins';

const TYPE = 'commande_fabrication';
const ROUTE = '/wp/v2/commandes-fabrication';
const EXTRA_FIELDS = 'manufacturing-extra-field/manufacturing-extra-field';
const BOX = '#service-integration-manufacturing-order-fields';
const NOTICE = '.service-integration-manufacturing-order-errors';

/** Our fields, then the two the fixture plugin adds through the filter. */
const FIELDS = [
	'source_order_id',
	'source_order_number',
	'items',
	'due_date',
	'priority',
	'notes',
	'workshop',
	'batch_size',
];

interface Record_ {
	id: number;
	meta: Record< string, unknown >;
}

const input = ( page: Page, field: string ) => page.locator( `#service-integration-mo-${ field }` );

async function createRecord( title: string, meta: Record< string, unknown > = {} ): Promise< Record_ > {
	const created = await adminClient().post< Record_ >( ROUTE, { title, status: 'publish', meta } );
	if ( created.status !== 201 ) {
		throw new Error(
			`Could not create "${ title }": HTTP ${ created.status } ${ JSON.stringify( created.body ) }`
		);
	}
	return created.body;
}

/** The fields the refused save's notice names, in its order. */
async function noticeFields( page: Page ): Promise< Array< string | null > > {
	return page
		.locator( `${ NOTICE } li` )
		.evaluateAll( ( items ) => items.map( ( item ) => item.getAttribute( 'data-field' ) ) );
}

async function storedMeta( id: number ): Promise< Record< string, unknown > > {
	const read = await adminClient().get< Record_ >( `${ ROUTE }/${ id }?context=edit` );
	expect( read.status ).toBe( 200 );
	return read.body.meta;
}

/**
 * Clicks Publish/Update and waits for the page WordPress redirects to. Neither a URL (the
 * redirect may have the form's own URL, and the editor rewrites the URL of a new record
 * with history.replaceState after its first autosave) nor the button's state is enough:
 * the editor ignores a click while an autosave runs, so the click is repeated until the
 * form is really posted.
 */
async function submit( page: Page ): Promise< void > {
	for ( let attempt = 1; attempt <= 3; attempt++ ) {
		await page.locator( '#publish:not(.disabled)' ).waitFor();
		const posted = page
			.waitForRequest(
				( request ) =>
					request.method() === 'POST' &&
					request.isNavigationRequest() &&
					new URL( request.url() ).pathname.endsWith( '/wp-admin/post.php' ),
				{ timeout: 15_000 }
			)
			.then(
				() => true,
				() => false
			);
		const loaded = page.waitForEvent( 'domcontentloaded', { timeout: 90_000 } );
		await page.click( '#publish', { noWaitAfter: true } );
		if ( await posted ) {
			await loaded;
			await page.locator( BOX ).waitFor();
			return;
		}
		loaded.catch( () => undefined );
	}
	throw new Error( `Clicking #publish never posted the edit form (at ${ page.url() })` );
}

/** Row IDs of the list table, top to bottom. */
async function rowIds( page: Page ): Promise< number[] > {
	return page
		.locator( '#the-list tr' )
		.evaluateAll( ( rows ) => rows.map( ( row ) => Number( row.id.replace( 'post-', '' ) ) ) );
}

/** Clicks a sortable column header like a person and returns the order the screen then says it uses. */
async function sortBy( page: Page, column: string ): Promise< string > {
	const before = page.url();
	await page.locator( `thead th#${ column } a` ).click();
	await page.waitForURL( ( url ) => url.toString() !== before && url.searchParams.get( 'orderby' ) === column, {
		waitUntil: 'domcontentloaded',
	} );
	return new URL( page.url() ).searchParams.get( 'order' ) ?? '';
}

describe( 'manufacturing orders in wp-admin', () => {
	let session: AdminSession;

	beforeAll( async () => {
		// Site code adds fields through the filter; the box must show those too.
		await setPluginActive( EXTRA_FIELDS, true );
		session = await openSession();
	}, SETUP_TIMEOUT );

	afterAll( async () => {
		await session?.close();
		await setPluginActive( EXTRA_FIELDS, false );
	} );

	it( 'the Add screen is labelled for the type, has no Visibility control, and its box lists every field with a fitting input', async () => {
		const { page, siteUrl } = session;
		const mark = debugLogMark();
		await page.goto( `${ siteUrl }/wp-admin/post-new.php?post_type=${ TYPE }`, { waitUntil: 'domcontentloaded' } );
		expect( ( await page.locator( 'h1.wp-heading-inline' ).innerText() ).trim() ).toBe( 'Add manufacturing order' );
		expect( await page.locator( '#adminmenu a', { hasText: 'All manufacturing orders' } ).count() ).toBe( 1 );

		// Core prints the control; it must not be shown.
		expect( await page.locator( '#visibility' ).count() ).toBe( 1 );
		expect( await page.locator( '#visibility' ).isVisible() ).toBe( false );

		// The box replaces core's raw Custom Fields box.
		expect( await page.locator( '#postcustom' ).count() ).toBe( 0 );
		expect( await page.locator( `${ BOX } h2` ).innerText() ).toBe( 'Manufacturing order details' );
		expect(
			await page
				.locator( `${ BOX } tr[data-field]` )
				.evaluateAll( ( rows ) => rows.map( ( row ) => row.getAttribute( 'data-field' ) ) )
		).toEqual( FIELDS );
		const kinds = await page.locator( `${ BOX } tr[data-field]` ).evaluateAll( ( rows ) =>
			rows.map( ( row ) => {
				const control = row.querySelector( 'input:not([type=hidden]), select, textarea' ) as HTMLInputElement;
				return `${ control.tagName.toLowerCase() }${ control.tagName === 'INPUT' ? `[${ control.type }]` : '' }`;
			} )
		);
		expect( kinds ).toEqual( [
			'input[number]',
			'input[text]',
			'textarea',
			'input[date]',
			'select',
			'textarea',
			'input[text]',
			'input[number]',
		] );
		// Translated labels, raw stored values.
		expect( await input( page, 'priority' ).locator( 'option' ).allInnerTexts() ).toEqual( [
			'Low',
			'Normal',
			'High',
		] );
		expect(
			await input( page, 'priority' )
				.locator( 'option' )
				.evaluateAll( ( options ) => options.map( ( option ) => ( option as HTMLOptionElement ).value ) )
		).toEqual( [ 'low', 'normal', 'high' ] );
		expect( await input( page, 'priority' ).inputValue() ).toBe( 'normal' );
		expect( await input( page, 'source_order_id' ).getAttribute( 'min' ) ).toBe( '0' );
		expect( await input( page, 'batch_size' ).getAttribute( 'min' ) ).toBe( '1' );
		expect( await input( page, 'batch_size' ).inputValue() ).toBe( '1' );
		await shot( session, 'manufacturing-order-add' );
		expect( session.errors ).toEqual( [] );
		expect( phpProblemsSince( mark ) ).toEqual( [] );
	} );

	it( 'stores exactly what was typed when the order is published', async () => {
		const { page, siteUrl } = session;
		const mark = debugLogMark();
		await page.goto( `${ siteUrl }/wp-admin/post-new.php?post_type=${ TYPE }`, { waitUntil: 'domcontentloaded' } );
		const typed = {
			source_order_id: 4321,
			source_order_number: 'WC-4321',
			items: [
				{ product_id: 7, sku: 'CHAIR-OAK', name: 'Oak chair', quantity: 4 },
				{ product_id: 9, sku: 'TABLE', name: 'Table "Oak" \\ 2m', quantity: 1 },
			],
			due_date: '2026-12-24',
			priority: 'high',
			notes: "Gift wrap\nIt's fragile",
			workshop: "Lyon's",
			batch_size: 12,
		};
		await page.fill( '#title', 'Typed in wp-admin' );
		await input( page, 'source_order_id' ).fill( String( typed.source_order_id ) );
		await input( page, 'source_order_number' ).fill( typed.source_order_number );
		await input( page, 'items' ).fill( JSON.stringify( typed.items ) );
		await input( page, 'due_date' ).fill( typed.due_date );
		await input( page, 'priority' ).selectOption( typed.priority );
		await input( page, 'notes' ).fill( typed.notes );
		await input( page, 'workshop' ).fill( typed.workshop );
		await input( page, 'batch_size' ).fill( String( typed.batch_size ) );
		await submit( page );

		expect( await page.locator( '#message' ).innerText() ).toContain( 'Manufacturing order published.' );
		expect( await page.locator( NOTICE ).count() ).toBe( 0 );
		const id = Number( new URL( page.url() ).searchParams.get( 'post' ) );
		expect( id ).toBeGreaterThan( 0 );
		expect( await storedMeta( id ) ).toEqual( typed );
		// The form shows what was stored.
		expect( JSON.parse( await input( page, 'items' ).inputValue() ) ).toEqual( typed.items );
		expect( await input( page, 'due_date' ).inputValue() ).toBe( typed.due_date );
		expect( session.errors ).toEqual( [] );
		expect( phpProblemsSince( mark ) ).toEqual( [] );
	} );

	it( 'refuses invalid values with a notice naming each field, writes none of the fields, and saves once they are corrected', async () => {
		const { page, siteUrl } = session;
		const mark = debugLogMark();
		const record = await createRecord( 'Invalid in wp-admin', {
			source_order_id: 55,
			items: [ { quantity: 2 } ],
			due_date: '2026-05-01',
			priority: 'low',
			notes: 'Original',
		} );
		const before = await storedMeta( record.id );
		await page.goto( `${ siteUrl }/wp-admin/post.php?post=${ record.id }&action=edit`, {
			waitUntil: 'domcontentloaded',
		} );
		expect( await input( page, 'notes' ).inputValue() ).toBe( 'Original' );

		// Valid on its own, so it shows that nothing is half-written.
		await input( page, 'notes' ).fill( 'Changed notes' );
		await input( page, 'items' ).fill( '[{"quantity": 3' );
		// A browser's date input holds only real dates: the server's check is what is under test.
		await input( page, 'due_date' ).evaluate( ( element ) => {
			( element as HTMLInputElement ).type = 'text';
		} );
		await input( page, 'due_date' ).fill( '24/12/2026' );
		await input( page, 'priority' ).evaluate( ( element ) => {
			const select = element as HTMLSelectElement;
			select.add( new Option( 'urgent', 'urgent' ) );
			select.value = 'urgent';
		} );
		await submit( page );

		const notice = page.locator( NOTICE );
		expect( await noticeFields( page ) ).toEqual( [ 'items', 'due_date', 'priority' ] );
		expect( await notice.locator( 'li[data-field=items]' ).innerText() ).toMatch(
			/^Items \(items\): items is not valid JSON/
		);
		expect( await notice.locator( 'li[data-field=due_date]' ).innerText() ).toMatch(
			/^Due date \(due_date\): due_date does not match pattern/
		);
		expect( await notice.locator( 'li[data-field=priority]' ).innerText() ).toMatch(
			/^Priority \(priority\): priority is not one of low, normal/
		);
		// Core's "updated" message would claim otherwise.
		expect( await page.locator( '#message' ).count() ).toBe( 0 );
		expect( await storedMeta( record.id ) ).toEqual( before );
		await shot( session, 'manufacturing-order-invalid' );

		// What was typed is still in the form, to be corrected.
		expect( await input( page, 'notes' ).inputValue() ).toBe( 'Changed notes' );
		expect( await input( page, 'items' ).inputValue() ).toBe( '[{"quantity": 3' );
		expect( await input( page, 'due_date' ).inputValue() ).toBe( '24/12/2026' );
		expect( await input( page, 'priority' ).inputValue() ).toBe( 'urgent' );
		expect(
			await page
				.locator( `${ BOX } tr.form-invalid` )
				.evaluateAll( ( rows ) => rows.map( ( row ) => row.getAttribute( 'data-field' ) ) )
		).toEqual( [ 'items', 'due_date', 'priority' ] );

		await input( page, 'items' ).fill( '[{"quantity": 3}]' );
		await input( page, 'due_date' ).fill( '2026-06-01' );
		await input( page, 'priority' ).selectOption( 'normal' );
		await submit( page );
		expect( await page.locator( NOTICE ).count() ).toBe( 0 );
		expect( await page.locator( '#message' ).innerText() ).toContain( 'Manufacturing order updated.' );
		expect( await storedMeta( record.id ) ).toEqual( {
			...before,
			notes: 'Changed notes',
			items: [ { quantity: 3 } ],
			due_date: '2026-06-01',
			priority: 'normal',
		} );
		expect( session.errors ).toEqual( [] );
		expect( phpProblemsSince( mark ) ).toEqual( [] );
	} );

	it( 'refuses a due date that does not exist (2026-02-30) with a notice naming the field, keeping the stored date', async () => {
		const { page, siteUrl } = session;
		const mark = debugLogMark();
		const record = await createRecord( 'Impossible date in wp-admin', { due_date: '2026-05-01', notes: 'Kept' } );
		const before = await storedMeta( record.id );
		await page.goto( `${ siteUrl }/wp-admin/post.php?post=${ record.id }&action=edit`, {
			waitUntil: 'domcontentloaded',
		} );
		// A browser's date input holds only real dates: the server's check is what is under test.
		await input( page, 'due_date' ).evaluate( ( element ) => {
			( element as HTMLInputElement ).type = 'text';
		} );
		await input( page, 'due_date' ).fill( '2026-02-30' );
		await input( page, 'notes' ).fill( 'Not saved either' );
		await submit( page );

		const notice = page.locator( NOTICE );
		expect( await noticeFields( page ) ).toEqual( [ 'due_date' ] );
		expect( await notice.locator( 'li[data-field=due_date]' ).innerText() ).toBe(
			'Due date (due_date): due_date is not a date that exists: 2026-02-30 (YYYY-MM-DD).'
		);
		expect( await storedMeta( record.id ) ).toEqual( before );
		expect( await input( page, 'due_date' ).inputValue() ).toBe( '2026-02-30' );
		expect( session.errors ).toEqual( [] );
		expect( phpProblemsSince( mark ) ).toEqual( [] );
	} );

	it( 'lists source order, due date, priority and item count, and sorts by due date, source order and priority', async () => {
		const { page, siteUrl } = session;
		const mark = debugLogMark();
		const token = `mo-list-${ Date.now().toString( 36 ) }`;
		const a = await createRecord( `${ token } a`, {
			source_order_id: 100,
			source_order_number: 'WC-100',
			due_date: '2026-03-10',
			priority: 'high',
			items: [ { quantity: 1 }, { quantity: 5 } ],
		} );
		const b = await createRecord( `${ token } b`, {
			source_order_id: 9,
			due_date: '2026-01-05',
			priority: 'low',
			items: [ { quantity: 1 } ],
		} );
		const c = await createRecord( `${ token } c`, {
			source_order_id: 20,
			due_date: '2026-02-20',
			priority: 'normal',
			items: [ { quantity: 1 }, { quantity: 1 }, { quantity: 1 } ],
		} );
		// Through REST a record stores only the fields it is sent: it must not drop out of a sorted list.
		const d = await createRecord( `${ token } d` );

		await page.goto( `${ siteUrl }/wp-admin/edit.php?post_type=${ TYPE }&s=${ token }`, {
			waitUntil: 'domcontentloaded',
		} );
		expect( ( await page.locator( 'h1.wp-heading-inline' ).innerText() ).trim() ).toBe( 'Manufacturing orders' );
		const headers = await page.locator( 'thead th' ).evaluateAll( ( cells ) => cells.map( ( cell ) => cell.id ) );
		expect( headers.slice( headers.indexOf( 'title' ), headers.indexOf( 'title' ) + 5 ) ).toEqual( [
			'title',
			'source_order',
			'due_date',
			'priority',
			'item_count',
		] );
		expect( await page.locator( 'thead th#item_count' ).innerText() ).toBe( 'Items' );
		expect( await page.locator( 'thead th#item_count a' ).count() ).toBe( 0 );

		const cells = async ( id: number ) =>
			page
				.locator(
					`#post-${ id } td.column-source_order, #post-${ id } td.column-due_date, #post-${ id } td.column-priority, #post-${ id } td.column-item_count`
				)
				.evaluateAll( ( tds ) =>
					tds.map( ( td ) =>
						(
							td.querySelector( 'time' )?.getAttribute( 'datetime' ) ??
							td.querySelector( '[aria-hidden=true]' )?.textContent ??
							td.textContent ??
							''
						).trim()
					)
				);
		expect( await cells( a.id ) ).toEqual( [ 'WC-100', '2026-03-10', 'High', '2' ] );
		expect( await cells( b.id ) ).toEqual( [ '#9', '2026-01-05', 'Low', '1' ] );
		expect( await cells( c.id ) ).toEqual( [ '#20', '2026-02-20', 'Normal', '3' ] );
		expect( await cells( d.id ) ).toEqual( [ '—', '—', 'Normal', '0' ] );

		// Empty due dates first when ascending.
		const byDate = [ d.id, b.id, c.id, a.id ];
		let order = await sortBy( page, 'due_date' );
		expect( await rowIds( page ) ).toEqual( order === 'asc' ? byDate : [ ...byDate ].reverse() );
		order = await sortBy( page, 'due_date' );
		expect( await rowIds( page ) ).toEqual( order === 'asc' ? byDate : [ ...byDate ].reverse() );
		await shot( session, 'manufacturing-orders-by-due-date' );

		// Numerically: as text, 100 would come before 20 and 9.
		const bySource = [ d.id, b.id, c.id, a.id ];
		order = await sortBy( page, 'source_order' );
		expect( await rowIds( page ) ).toEqual( order === 'asc' ? bySource : [ ...bySource ].reverse() );

		// By rank, not alphabetically (which would put high first and normal last).
		const byPriority = [ 'Low', 'Normal', 'Normal', 'High' ];
		order = await sortBy( page, 'priority' );
		expect( await page.locator( '#the-list td.column-priority' ).allInnerTexts() ).toEqual(
			order === 'asc' ? byPriority : [ ...byPriority ].reverse()
		);
		expect( session.errors ).toEqual( [] );
		expect( phpProblemsSince( mark ) ).toEqual( [] );
	} );
} );
