import type { Page } from 'playwright-core';
import { openSession, SETUP_TIMEOUT, shot, type AdminSession } from '../support/admin-page';
import { adminClient } from '../support/clients';
import { commerce } from '../support/commerce';
import { debugLogMark, phpProblemsSince } from '../support/debug-log';
import { setPluginActive } from '../support/plugins';
import { readState } from '../support/environment';

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

interface Row {
	sku: string;
	name: string;
	quantity: string;
}

/** The item rows as the owner reads them (the empty row to type a new one into included). */
async function itemRows( page: Page ): Promise< Row[] > {
	return input( page, 'items' )
		.locator( 'tbody tr' )
		.evaluateAll( ( rows ) =>
			rows.map( ( row ) => {
				const value = ( property: string ) =>
					( row.querySelector( `input[name$="[${ property }]"]` ) as HTMLInputElement ).value;
				return { sku: value( 'sku' ), name: value( 'name' ), quantity: value( 'quantity' ) };
			} )
		);
}

/** Types one item into row `index` (0-based) through its labelled inputs, as a person (or a screen reader user) finds them. */
async function typeRow( page: Page, index: number, row: Row ): Promise< void > {
	const group = input( page, 'items' );
	await group.getByLabel( `SKU, row ${ index + 1 }`, { exact: true } ).fill( row.sku );
	await group.getByLabel( `Name, row ${ index + 1 }`, { exact: true } ).fill( row.name );
	await group.getByLabel( `Quantity, row ${ index + 1 }`, { exact: true } ).fill( row.quantity );
}

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
		const loaded = page.waitForEvent( 'domcontentloaded', { timeout: 60_000 } );
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
				if ( row.querySelector( '.service-integration-mo-rows' ) ) {
					return 'rows';
				}
				const control = row.querySelector( 'input:not([type=hidden]), select, textarea' ) as HTMLInputElement;
				return `${ control.tagName.toLowerCase() }${ control.tagName === 'INPUT' ? `[${ control.type }]` : '' }`;
			} )
		);
		expect( kinds ).toEqual( [
			'input[number]',
			'input[text]',
			'rows',
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
		// Items as WooCommerce shows an order's: a table of rows, never JSON.
		expect( await input( page, 'items' ).locator( 'thead th' ).allInnerTexts() ).toEqual( [
			'SKU',
			'Name',
			'Quantity',
			'Actions',
		] );
		expect( await itemRows( page ) ).toEqual( [ { sku: '', name: '', quantity: '' } ] );
		expect( await page.locator( `${ BOX } textarea.code` ).count() ).toBe( 0 );
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
				{ sku: 'CHAIR-OAK', name: 'Oak chair', quantity: 4 },
				{ sku: 'TABLE', name: 'Table "Oak" \\ 2m', quantity: 1 },
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
		await typeRow( page, 0, { sku: 'CHAIR-OAK', name: 'Oak chair', quantity: '4' } );
		await page.getByRole( 'button', { name: 'Add row' } ).click();
		await typeRow( page, 1, { sku: 'TABLE', name: 'Table "Oak" \\ 2m', quantity: '1' } );
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
		expect( await itemRows( page ) ).toEqual( [
			{ sku: 'CHAIR-OAK', name: 'Oak chair', quantity: '4' },
			{ sku: 'TABLE', name: 'Table "Oak" \\ 2m', quantity: '1' },
			{ sku: '', name: '', quantity: '' },
		] );
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
		// The browser's own check of a number input would stop the form: the server's is under test.
		await input( page, 'items' )
			.getByLabel( 'Quantity, row 1', { exact: true } )
			.evaluate( ( element ) => {
				( element as HTMLInputElement ).type = 'text';
			} );
		await input( page, 'items' ).getByLabel( 'Quantity, row 1', { exact: true } ).fill( '0' );
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
		// The REST route refuses the same row with core's schema message (0-based, the field's key) …
		const rest = await adminClient().post< { code: string; message: string } >( `${ ROUTE }/${ record.id }`, {
			meta: { items: [ { quantity: 0 } ] },
		} );
		expect( rest.status ).toBe( 400 );
		expect( JSON.stringify( rest.body ) ).toContain( 'items[0][quantity] must be greater than or equal to 1' );
		// … the edit screen names it as its form does: the row from 1 and the column's label.
		expect( await notice.locator( 'li[data-field=items]' ).innerText() ).toBe(
			'Items (items): Row 1, Quantity: must be at least 1.'
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
		expect( await itemRows( page ) ).toEqual( [
			{ sku: '', name: '', quantity: '0' },
			{ sku: '', name: '', quantity: '' },
		] );
		expect( await input( page, 'due_date' ).inputValue() ).toBe( '24/12/2026' );
		expect( await input( page, 'priority' ).inputValue() ).toBe( 'urgent' );
		expect(
			await page
				.locator( `${ BOX } tr.form-invalid` )
				.evaluateAll( ( rows ) => rows.map( ( row ) => row.getAttribute( 'data-field' ) ) )
		).toEqual( [ 'items', 'due_date', 'priority' ] );

		await input( page, 'items' ).getByLabel( 'Quantity, row 1', { exact: true } ).fill( '3' );
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

	it( "adds, moves and removes item rows with labelled buttons from the keyboard, says so in a live region, and keeps each row's product", async () => {
		const { page, siteUrl } = session;
		const mark = debugLogMark();
		const record = await createRecord( 'Rows in wp-admin', {
			items: [
				{ product_id: 7, sku: 'A', name: 'First', quantity: 1 },
				{ product_id: 8, sku: 'B', name: 'Second', quantity: 2 },
			],
		} );
		await page.goto( `${ siteUrl }/wp-admin/post.php?post=${ record.id }&action=edit`, {
			waitUntil: 'domcontentloaded',
		} );
		const group = input( page, 'items' );
		const status = group.locator( '[role=status]' );
		expect( await group.getAttribute( 'role' ) ).toBe( 'group' );
		expect( await page.locator( `#${ await group.getAttribute( 'aria-labelledby' ) }` ).innerText() ).toBe(
			'Items'
		);

		// Moves row 2 up with the keyboard: focus its button, press Enter.
		await group.getByRole( 'button', { name: 'Move row 2 up', exact: true } ).focus();
		await page.keyboard.press( 'Enter' );
		await status.filter( { hasText: 'Row moved to position 1.' } ).waitFor();
		expect( ( await itemRows( page ) ).map( ( row ) => row.sku ) ).toEqual( [ 'B', 'A', '' ] );
		// The moved row's button keeps the focus and is named for its new place.
		expect( await page.locator( ':focus' ).getAttribute( 'aria-label' ) ).toBe( 'Move row 1 up' );
		await page.keyboard.press( 'Enter' );
		await status.filter( { hasText: 'Row 1 is already the first.' } ).waitFor();

		// Adds a row from the keyboard: the new row's first input gets the focus.
		await group.getByRole( 'button', { name: 'Add row' } ).focus();
		await page.keyboard.press( 'Enter' );
		await status.filter( { hasText: 'Row 4 added.' } ).waitFor();
		expect( await page.locator( ':focus' ).getAttribute( 'id' ) ).toBe( 'service-integration-mo-items-3-sku' );
		await page.keyboard.type( 'C' );
		await group.getByLabel( 'Quantity, row 4', { exact: true } ).fill( '5' );

		// Removes the empty row 3, then row 2 ("A").
		await group.getByRole( 'button', { name: 'Remove row 3', exact: true } ).focus();
		await page.keyboard.press( 'Enter' );
		await status.filter( { hasText: 'Row 3 removed.' } ).waitFor();
		await group.getByRole( 'button', { name: 'Remove row 2', exact: true } ).click();
		await status.filter( { hasText: 'Row 2 removed.' } ).waitFor();
		expect( await itemRows( page ) ).toEqual( [
			{ sku: 'B', name: 'Second', quantity: '2' },
			{ sku: 'C', name: '', quantity: '5' },
		] );
		await shot( session, 'manufacturing-order-item-rows' );
		await submit( page );

		expect( await page.locator( NOTICE ).count() ).toBe( 0 );
		// Row B kept its product; the new row has none.
		expect( ( await storedMeta( record.id ) ).items ).toEqual( [
			{ product_id: 8, sku: 'B', name: 'Second', quantity: 2 },
			{ sku: 'C', quantity: 5 },
		] );
		expect( session.errors ).toEqual( [] );
		expect( phpProblemsSince( mark ) ).toEqual( [] );
	} );

	it( 'works without JavaScript: the empty row adds an item, an emptied row removes one', async () => {
		const { siteUrl } = session;
		const mark = debugLogMark();
		const record = await createRecord( 'Rows without JavaScript', {
			items: [
				{ sku: 'KEEP', quantity: 1 },
				{ sku: 'DROP', quantity: 2 },
			],
		} );
		const context = await session.launched.browser.newContext( {
			javaScriptEnabled: false,
			storageState: await session.context.storageState(),
		} );
		try {
			const page = await context.newPage();
			// 'load': the stylesheet that hides the buttons without a script is applied by then
			// (DOMContentLoaded does not wait for stylesheets when no script runs).
			await page.goto( `${ siteUrl }/wp-admin/post.php?post=${ record.id }&action=edit`, { waitUntil: 'load' } );
			const group = input( page, 'items' );
			// The buttons need the script: without it they are not offered.
			expect( await group.getByRole( 'button', { name: 'Remove row 1', exact: true } ).isVisible() ).toBe(
				false
			);
			await group.getByLabel( 'SKU, row 2', { exact: true } ).fill( '' );
			await group.getByLabel( 'Quantity, row 2', { exact: true } ).fill( '' );
			await typeRow( page, 2, { sku: 'NEW', name: 'Added', quantity: '3' } );
			await Promise.all( [
				page.waitForNavigation( { waitUntil: 'domcontentloaded' } ),
				page.click( '#publish' ),
			] );
			expect( ( await storedMeta( record.id ) ).items ).toEqual( [
				{ sku: 'KEEP', quantity: 1 },
				{ sku: 'NEW', name: 'Added', quantity: 3 },
			] );
		} finally {
			await context.close();
		}
		expect( phpProblemsSince( mark ) ).toEqual( [] );
	} );

	it( 'lists source order, due date, priority and item count, and sorts by due date, source order and priority', async () => {
		const { page, siteUrl } = session;
		const mark = debugLogMark();
		const token = `mo-list-${ Date.now().toString( 36 ) }`;
		// On a shop, a real order: its own number and a link win over what the record stored. Without
		// one (the no-shop cell), an order id no site has: the stored number shows, unlinked.
		const withShop = readState().commerce === 'woocommerce';
		let orderId = 77;
		if ( withShop ) {
			const shop = commerce();
			const [ product ] = await shop.createProducts( [
				{ name: 'Oak stool', sku: `STOOL-${ Date.now() }`, price: '80.00' },
			] );
			[ orderId ] = ( await shop.createOrders( [
				{ status: 'pending', line_items: [ { product_id: ( product as { id: number } ).id, quantity: 1 } ] },
			] ) ) as [ number ];
		}
		const a = await createRecord( `${ token } a`, {
			source_order_id: orderId,
			source_order_number: 'WC-100',
			due_date: '2026-03-10',
			priority: 'high',
			items: [ { quantity: 1 }, { quantity: 5 } ],
		} );
		// Far above any order of the test site: orders that do not exist.
		const b = await createRecord( `${ token } b`, {
			source_order_id: 90000009,
			due_date: '2026-01-05',
			priority: 'low',
			items: [ { quantity: 1 } ],
		} );
		const c = await createRecord( `${ token } c`, {
			source_order_id: 900000020,
			source_order_number: 'ATELIER-20',
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
		// One format, as WooCommerce names an order: "#" and its number.
		expect( await cells( a.id ) ).toEqual( [ withShop ? `#${ orderId }` : '#WC-100', '2026-03-10', 'High', '2' ] );
		expect( await cells( b.id ) ).toEqual( [ '#90000009', '2026-01-05', 'Low', '1' ] );
		expect( await cells( c.id ) ).toEqual( [ '#ATELIER-20', '2026-02-20', 'Normal', '3' ] );
		const link = page.locator( `#post-${ a.id } td.column-source_order a` );
		if ( withShop ) {
			expect(
				new URL( ( await link.getAttribute( 'href' ) ) as string, siteUrl ).searchParams.get( 'id' ) ?? ''
			).toBe( String( orderId ) );
		} else {
			expect( await link.count() ).toBe( 0 );
		}
		expect( await page.locator( `#post-${ b.id } td.column-source_order a` ).count() ).toBe( 0 );
		expect( await cells( d.id ) ).toEqual( [ '—', '—', 'Normal', '0' ] );

		// Empty due dates first when ascending.
		const byDate = [ d.id, b.id, c.id, a.id ];
		let order = await sortBy( page, 'due_date' );
		expect( await rowIds( page ) ).toEqual( order === 'asc' ? byDate : [ ...byDate ].reverse() );
		order = await sortBy( page, 'due_date' );
		expect( await rowIds( page ) ).toEqual( order === 'asc' ? byDate : [ ...byDate ].reverse() );
		await shot( session, 'manufacturing-orders-by-due-date' );

		// Numerically: as text, 900000020 would come before 90000009.
		const bySource = [ d.id, a.id, b.id, c.id ];
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
