import { randomUUID } from 'node:crypto';
import { adminClient } from '../support/clients';
import { readState } from '../support/environment';
import { withPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';
import type { RestClient, RestError, RestResult } from '../../../scripts/lib/rest-client';

const ROUTE = '/wp/v2/commandes-fabrication';
const SETTING = 'service_integration_unique_source_order_id';
const DELAY_PLUGIN = 'manufacturing-create-delay/manufacturing-create-delay';
const LIVE_STATUSES = 'publish,future,draft,pending,private';

interface Record_ {
	id: number;
	title: { rendered: string };
	meta: Record< string, unknown >;
}

/** A title no other test uses, so the records it names can be counted. */
const uniqueTitle = ( label: string ) => `${ label } ${ randomUUID() }`;

/** A commerce order id no other test uses. */
const uniqueSource = () => 100_000_000 + Math.floor( Math.random() * 900_000_000 );

function create(
	client: RestClient,
	data: Record< string, unknown >,
	key?: string
): Promise< RestResult< Record_ & RestError > > {
	return client.request< Record_ & RestError >( {
		method: 'POST',
		path: ROUTE,
		data,
		headers: key === undefined ? {} : { 'idempotency-key': key },
	} );
}

/** Live records with this exact title, whoever wrote them, as an administrator lists them. */
async function recordsTitled( title: string ): Promise< number[] > {
	const listed = await adminClient().get< Record_[] >(
		`${ ROUTE }?search=${ encodeURIComponent( title ) }&status=${ LIVE_STATUSES }&per_page=100`
	);
	expect( listed.status ).toBe( 200 );
	return listed.body.filter( ( record ) => record.title.rendered === title ).map( ( record ) => record.id );
}

/** Switches the setting, as an administrator does through REST. */
async function setUniqueSourceOrders( on: boolean ): Promise< void > {
	const set = await adminClient().post< Record< string, unknown > >( '/wp/v2/settings', { [ SETTING ]: on } );
	expect( [ set.status, set.body[ SETTING ] ] ).toEqual( [ 200, on ] );
}

/**
 * Retries create nothing twice: the manufacturing orders' create route honours the
 * Idempotency-Key header (Stripe's semantics), and optionally refuses a second live record
 * for one commerce order. Counted through REST as an administrator, who sees every record.
 */
describe( 'manufacturing orders: Idempotency-Key', () => {
	let account: ServiceAccount;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'idempotency-test' );
	} );

	it( 'answers a retry with the first answer, marked as a replay, and makes one record', async () => {
		const title = uniqueTitle( 'Replayed' );
		const key = randomUUID();
		const body = { title, status: 'publish', meta: { source_order_id: uniqueSource(), priority: 'high' } };
		const first = await create( account.client, body, key );
		expect( first.status ).toBe( 201 );
		expect( first.headers.get( 'idempotent-replayed' ) ).toBeNull();

		const again = await create( account.client, body, key );
		expect( again.status ).toBe( 201 );
		expect( again.headers.get( 'idempotent-replayed' ) ).toBe( 'true' );
		expect( again.headers.get( 'location' ) ).toBe( first.headers.get( 'location' ) );
		expect( again.body ).toEqual( first.body );

		// The draft's Structured Field form of the same key is the same key.
		const quoted = await create( account.client, body, `"${ key }"` );
		expect( [ quoted.status, quoted.headers.get( 'idempotent-replayed' ), quoted.body.id ] ).toEqual( [
			201,
			'true',
			first.body.id,
		] );
		expect( await recordsTitled( title ) ).toEqual( [ first.body.id ] );
	} );

	it( 'refuses the same key with another body (422), writing nothing', async () => {
		const title = uniqueTitle( 'First body' );
		const other = uniqueTitle( 'Other body' );
		const key = randomUUID();
		const first = await create( account.client, { title, status: 'publish' }, key );
		expect( first.status ).toBe( 201 );

		const reused = await create( account.client, { title: other, status: 'publish' }, key );
		expect( [ reused.status, reused.body.code ] ).toEqual( [ 422, 'idempotency_key_reused' ] );
		expect( reused.body.message ).toContain( 'Idempotency-Key' );
		expect( await recordsTitled( title ) ).toEqual( [ first.body.id ] );
		expect( await recordsTitled( other ) ).toEqual( [] );
	} );

	it( "keys are the user's own: another user's same key and body make that user's record", async () => {
		const title = uniqueTitle( 'Two users' );
		const key = randomUUID();
		const mine = await create( account.client, { title, status: 'publish' }, key );
		const theirs = await create( adminClient(), { title, status: 'publish' }, key );
		expect( [ mine.status, theirs.status, theirs.headers.get( 'idempotent-replayed' ) ] ).toEqual( [
			201,
			201,
			null,
		] );
		expect( ( await recordsTitled( title ) ).sort() ).toEqual( [ mine.body.id, theirs.body.id ].sort() );
	} );

	it( 'keeps no key for a refused request: the corrected retry with the same key creates', async () => {
		const title = uniqueTitle( 'Corrected' );
		const key = randomUUID();
		const refused = await create(
			account.client,
			{ title, status: 'publish', meta: { due_date: '2026-02-30' } },
			key
		);
		expect( [ refused.status, refused.body.code ] ).toEqual( [ 400, 'rest_invalid_date' ] );
		expect( await recordsTitled( title ) ).toEqual( [] );

		const corrected = await create(
			account.client,
			{ title, status: 'publish', meta: { due_date: '2026-02-28' } },
			key
		);
		expect( [ corrected.status, corrected.headers.get( 'idempotent-replayed' ) ] ).toEqual( [ 201, null ] );
		expect( await recordsTitled( title ) ).toEqual( [ corrected.body.id ] );
	} );

	// As they come, the first may finish before the others start (PHP-FPM runs 4 at a time here);
	// held 2 s once written, it is still running when the next ones claim the key.
	it.each( [
		[ 'as they come', {} ],
		[ 'with the first held 2 s once written, so they overlap it', { 'x-test-create-delay-ms': '2000' } ],
	] )(
		'makes ONE record of 20 concurrent identical requests (%s); the others replay it or are told it is in progress',
		async ( label, delay ) => {
			const title = uniqueTitle( 'Concurrent' );
			const key = randomUUID();
			const body = { title, status: 'publish', meta: { source_order_id: uniqueSource() } };
			const answers = await withPluginActive( DELAY_PLUGIN, () =>
				Promise.all(
					Array.from( { length: 20 }, () =>
						account.client.request< Record_ & RestError >( {
							method: 'POST',
							path: ROUTE,
							data: body,
							headers: { 'idempotency-key': key, ...delay },
						} )
					)
				)
			);

			const created = answers.filter( ( answer ) => answer.status === 201 );
			const fresh = created.filter( ( answer ) => answer.headers.get( 'idempotent-replayed' ) === null );
			const inProgress = answers.filter( ( answer ) => answer.status === 409 );
			console.info(
				`20 concurrent identical requests (${ label }, ${ readState().runtime } runtime): ${ fresh.length } created, ${ created.length - fresh.length } replayed, ${ inProgress.length } in progress (409), other: ${ answers.length - created.length - inProgress.length }`
			);
			expect( fresh ).toHaveLength( 1 );
			expect( created.length + inProgress.length ).toBe( 20 );
			expect( new Set( created.map( ( answer ) => answer.body.id ) ) ).toEqual(
				new Set( [ fresh[ 0 ]?.body.id ] )
			);
			for ( const answer of inProgress ) {
				expect( answer.body.code ).toBe( 'idempotency_key_in_progress' );
				expect( Number( answer.headers.get( 'retry-after' ) ) ).toBeGreaterThanOrEqual( 1 );
			}
			if ( 'x-test-create-delay-ms' in delay && readState().runtime === 'production' ) {
				// Requests really ran side by side (Playground runs one PHP request at a time).
				expect( inProgress.length ).toBeGreaterThan( 0 );
			}
			expect( await recordsTitled( title ) ).toEqual( [ fresh[ 0 ]?.body.id ] );

			// Once the first has finished, a retry of any of them is a replay.
			const retry = await create( account.client, body, key );
			expect( [ retry.status, retry.headers.get( 'idempotent-replayed' ), retry.body.id ] ).toEqual( [
				201,
				'true',
				fresh[ 0 ]?.body.id,
			] );
		}
	);

	it.each( [
		[ 'an empty Structured Field string', '""' ],
		[ 'only spaces, quoted', '"   "' ],
		[ '256 characters', 'k'.repeat( 256 ) ],
		[ 'a tab inside', 'a\tb' ],
		[ 'a non-ASCII character', 'clé' ],
		[ 'an unterminated Structured Field string', '"abc' ],
	] )( 'refuses a bad key (%s) with 400, writing nothing', async ( _label, key ) => {
		const title = uniqueTitle( 'Bad key' );
		const refused = await create( account.client, { title, status: 'publish' }, key );
		expect( [ refused.status, refused.body.code ] ).toEqual( [ 400, 'idempotency_key_invalid' ] );
		expect( refused.body.message ).toBe(
			'The Idempotency-Key header must be 1 to 255 printable ASCII characters.'
		);
		expect( await recordsTitled( title ) ).toEqual( [] );
	} );

	it( 'takes a key of 255 characters', async () => {
		const title = uniqueTitle( 'Long key' );
		const key = randomUUID().padEnd( 255, 'k' );
		const first = await create( account.client, { title, status: 'publish' }, key );
		const again = await create( account.client, { title, status: 'publish' }, key );
		expect( [ first.status, again.status, again.headers.get( 'idempotent-replayed' ), again.body.id ] ).toEqual( [
			201,
			201,
			'true',
			first.body.id,
		] );
	} );
} );

describe( 'manufacturing orders: one live record per source order (the option)', () => {
	let account: ServiceAccount;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'unique-source-test' );
	} );

	afterAll( async () => {
		await setUniqueSourceOrders( false );
	} );

	it( 'is off by default: two records of one source order are both made', async () => {
		const settings = await adminClient().get< Record< string, unknown > >( '/wp/v2/settings' );
		expect( settings.body[ SETTING ] ).toBe( false );
		const source = uniqueSource();
		const title = uniqueTitle( 'Off' );
		const one = await create( account.client, { title, status: 'publish', meta: { source_order_id: source } } );
		const two = await create( account.client, { title, status: 'publish', meta: { source_order_id: source } } );
		expect( [ one.status, two.status ] ).toEqual( [ 201, 201 ] );
	} );

	it( 'on, refuses a second live record with 409 and the existing id; a trashed one no longer counts', async () => {
		await setUniqueSourceOrders( true );
		const source = uniqueSource();
		const title = uniqueTitle( 'Unique' );
		const first = await create( account.client, { title, status: 'publish', meta: { source_order_id: source } } );
		expect( first.status ).toBe( 201 );

		const second = await create( account.client, { title, status: 'draft', meta: { source_order_id: source } } );
		expect( [ second.status, second.body.code, second.body.data?.id ] ).toEqual( [
			409,
			'manufacturing_order_exists',
			first.body.id,
		] );
		expect( await recordsTitled( title ) ).toEqual( [ first.body.id ] );

		// Another record cannot be moved onto that source order either.
		const other = await create( account.client, { title: uniqueTitle( 'Elsewhere' ), status: 'publish' } );
		const moved = await account.client.post< RestError >( `${ ROUTE }/${ other.body.id }`, {
			meta: { source_order_id: source },
		} );
		expect( [ moved.status, moved.body.code, moved.body.data?.id ] ).toEqual( [
			409,
			'manufacturing_order_exists',
			first.body.id,
		] );
		// Its own record keeps its source order through an update.
		const kept = await account.client.post< Record_ >( `${ ROUTE }/${ first.body.id }`, {
			meta: { source_order_id: source, priority: 'low' },
		} );
		expect( kept.status ).toBe( 200 );

		const trashed = await adminClient().request( { method: 'DELETE', path: `${ ROUTE }/${ first.body.id }` } );
		expect( trashed.status ).toBe( 200 );
		const after = await create( account.client, { title, status: 'publish', meta: { source_order_id: source } } );
		expect( after.status ).toBe( 201 );
		expect( await recordsTitled( title ) ).toEqual( [ after.body.id ] );
	} );

	it( 'on, makes one record of 5 concurrent requests for one source order without keys', async () => {
		await setUniqueSourceOrders( true );
		const source = uniqueSource();
		const title = uniqueTitle( 'Concurrent source' );
		const answers = await Promise.all(
			Array.from( { length: 5 }, () =>
				create( account.client, { title, status: 'publish', meta: { source_order_id: source } } )
			)
		);
		const created = answers.filter( ( answer ) => answer.status === 201 );
		expect( created ).toHaveLength( 1 );
		for ( const answer of answers.filter( ( item ) => item.status !== 201 ) ) {
			expect( [ answer.status, answer.body.code, answer.body.data?.id ] ).toEqual( [
				409,
				'manufacturing_order_exists',
				created[ 0 ]?.body.id,
			] );
		}
		expect( await recordsTitled( title ) ).toEqual( [ created[ 0 ]?.body.id ] );
	} );

	it( 'cannot be switched by the service account', async () => {
		const refused = await account.client.post< RestError >( '/wp/v2/settings', { [ SETTING ]: true } );
		expect( [ 401, 403 ] ).toContain( refused.status );
	} );
} );

/**
 * A query of the create that fails is answered as an error and never creates twice: a test
 * plugin makes one kind of query of one request read a table that does not exist.
 */
describe( 'manufacturing orders: database errors', () => {
	const FAULT_PLUGIN = 'manufacturing-store-fault/manufacturing-store-fault';
	let account: ServiceAccount;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'store-fault-test' );
	} );

	afterAll( async () => {
		await setUniqueSourceOrders( false );
	} );

	/** A create whose queries of one kind fail. */
	function createFaulty( fault: string, data: Record< string, unknown >, key?: string ) {
		return account.client.request< Record_ & RestError >( {
			method: 'POST',
			path: ROUTE,
			data,
			headers: {
				'x-test-manufacturing-store-fault': fault,
				...( key === undefined ? {} : { 'idempotency-key': key } ),
			},
		} );
	}

	/** The database's error as REST answers it: 500, no SQL, no table name. */
	function expectDatabaseError( answer: RestResult< Record_ & RestError > ): void {
		expect( [ answer.status, answer.body.code, answer.body.data?.status ] ).toEqual( [
			500,
			'service_integration_database_error',
			500,
		] );
		expect( answer.body.message ).not.toMatch( /select|from|missing_table|si_idempotency_keys|wp_|sql/i );
	}

	it( 'answers 500 service_integration_database_error when the key cannot be claimed, and creates nothing', async () => {
		await withPluginActive( FAULT_PLUGIN, async () => {
			const title = uniqueTitle( 'Keys down' );
			const key = randomUUID();
			const body = { title, status: 'publish', meta: { source_order_id: uniqueSource() } };
			expectDatabaseError( await createFaulty( 'keys', body, key ) );
			expect( await recordsTitled( title ) ).toEqual( [] );

			// Nothing was claimed: once the table answers, the same key creates, once.
			const retried = await create( account.client, body, key );
			const again = await create( account.client, body, key );
			expect( [
				retried.status,
				again.status,
				again.headers.get( 'idempotent-replayed' ),
				again.body.id,
			] ).toEqual( [ 201, 201, 'true', retried.body.id ] );
			expect( await recordsTitled( title ) ).toEqual( [ retried.body.id ] );
		} );
	} );

	it( 'still answers a created record whose answer could not be kept, and a retry meets the held key, not a second record', async () => {
		await withPluginActive( FAULT_PLUGIN, async () => {
			const title = uniqueTitle( 'Answer lost' );
			const key = randomUUID();
			const body = { title, status: 'publish' };
			const first = await createFaulty( 'complete', body, key );
			expect( first.status ).toBe( 201 );

			const retry = await create( account.client, body, key );
			expect( [ retry.status, retry.body.code ] ).toEqual( [ 409, 'idempotency_key_in_progress' ] );
			expect( Number( retry.headers.get( 'retry-after' ) ) ).toBeGreaterThanOrEqual( 1 );
			expect( await recordsTitled( title ) ).toEqual( [ first.body.id ] );
		} );
	} );

	it.each( [
		[ 'the source order cannot be locked', 'lock' ],
		[ 'its live records cannot be read', 'live' ],
	] )(
		'with unique source orders, answers 500 service_integration_database_error when %s, and writes nothing',
		async ( _label, fault ) => {
			await setUniqueSourceOrders( true );
			await withPluginActive( FAULT_PLUGIN, async () => {
				const title = uniqueTitle( `Source ${ fault } down` );
				const source = uniqueSource();
				const body = { title, status: 'publish', meta: { source_order_id: source } };
				expectDatabaseError( await createFaulty( fault, body ) );
				expectDatabaseError( await createFaulty( fault, body, randomUUID() ) );
				expect( await recordsTitled( title ) ).toEqual( [] );

				// With the database answering, the record is made.
				const made = await create( account.client, body );
				expect( made.status ).toBe( 201 );
				expect( await recordsTitled( title ) ).toEqual( [ made.body.id ] );
			} );
		}
	);
} );
