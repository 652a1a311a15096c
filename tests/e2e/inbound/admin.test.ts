import { sampleWebhook } from '../../support/inbound-signers';
import { schemaErrors } from '../support/answer-schema';
import { adminClient, anonymousClient } from '../support/clients';
import { provisionServiceAccount } from '../support/service-account';
import { ADMIN, createSource, receivingUrl, sendWebhook, type InboundEvent } from '../support/inbound';

/**
 * The administrators' routes the admin page uses: sources (kept in the sidecar, with
 * their secrets) through the signed channel, the sidecar's verification log, and the
 * events stored in WordPress.
 */
describe( 'inbound admin routes', () => {
	it( 'are for administrators only', async () => {
		const account = await provisionServiceAccount( 'inbound-admin-check' );
		for ( const [ method, path ] of [
			[ 'GET', `${ ADMIN }/sources` ],
			[ 'POST', `${ ADMIN }/sources` ],
			[ 'GET', `${ ADMIN }/sources/sw-e2e` ],
			[ 'DELETE', `${ ADMIN }/sources/sw-e2e` ],
			[ 'POST', `${ ADMIN }/sources/sw-e2e/rotate-secret` ],
			[ 'GET', `${ ADMIN }/log` ],
			[ 'GET', `${ ADMIN }/events` ],
			[ 'GET', `${ ADMIN }/events/1` ],
			[ 'POST', `${ ADMIN }/events/1/retry` ],
		] as const ) {
			const anonymous = await anonymousClient().request< { code: string } >( {
				method,
				path,
				data: method === 'POST' ? {} : undefined,
			} );
			expect( { path, method, status: anonymous.status, code: anonymous.body.code } ).toEqual( {
				path,
				method,
				status: 401,
				code: 'rest_forbidden',
			} );
			const automation = await account.client.request< { code: string } >( {
				method,
				path,
				data: method === 'POST' ? {} : undefined,
			} );
			expect( { path, method, status: automation.status, code: automation.body.code } ).toEqual( {
				path,
				method,
				status: 403,
				code: 'rest_forbidden',
			} );
		}
	} );

	it( 'manage sources through the sidecar, each answer with its receiving URL; secrets only once', async () => {
		const admin = adminClient();
		const created = await createSource( 'admin-e2e', 'standard-webhooks', { description: 'first' } );
		expect( created ).toMatchObject( {
			id: 'admin-e2e',
			scheme: 'standard-webhooks',
			status: 'active',
			receiving_url: receivingUrl( 'admin-e2e' ),
		} );
		expect( created.secret ).toMatch( /^whsec_/ );

		const list = await admin.get< { sources: Array< Record< string, unknown > > } >( `${ ADMIN }/sources` );
		expect( list.status ).toBe( 200 );
		const listed = list.body.sources.find( ( source ) => source.id === 'admin-e2e' );
		expect( listed ).toMatchObject( {
			receiving_url: receivingUrl( 'admin-e2e' ),
			secrets: [ { masked: expect.stringMatching( /^whsec_…/ ) } ],
		} );
		expect( JSON.stringify( list.body ) ).not.toContain( created.secret.slice( 6 ) );

		const updated = await admin.post< Record< string, unknown > >( `${ ADMIN }/sources/admin-e2e`, {
			description: 'second',
			tolerance_seconds: 120,
		} );
		expect( updated.status ).toBe( 200 );
		expect( updated.body ).toMatchObject( {
			description: 'second',
			tolerance_seconds: 120,
			receiving_url: receivingUrl( 'admin-e2e' ),
		} );
		const patched = await admin.request< Record< string, unknown > >( {
			method: 'PATCH',
			path: `${ ADMIN }/sources/admin-e2e`,
			data: { status: 'disabled' },
		} );
		expect( patched.body ).toMatchObject( { status: 'disabled' } );
		const refused = await sendWebhook( 'admin-e2e', sampleWebhook( 'standard-webhooks', created.secret ) );
		expect( { status: refused.status, code: refused.body.code } ).toEqual( {
			status: 403,
			code: 'source_disabled',
		} );
		await admin.post( `${ ADMIN }/sources/admin-e2e`, { status: 'active' } );

		// Rotation: a generated secret, shown once; the old one still verifies during the grace period.
		const rotated = await admin.post< { secret: string; secrets: unknown[]; receiving_url: string } >(
			`${ ADMIN }/sources/admin-e2e/rotate-secret`,
			{}
		);
		expect( rotated.status ).toBe( 200 );
		expect( rotated.headers.get( 'cache-control' ) ).toContain( 'no-store' );
		expect( rotated.body.secret ).toMatch( /^whsec_/ );
		expect( rotated.body.secrets ).toHaveLength( 2 );
		expect(
			( await sendWebhook( 'admin-e2e', sampleWebhook( 'standard-webhooks', created.secret ) ) ).status
		).toBe( 202 );
		expect(
			( await sendWebhook( 'admin-e2e', sampleWebhook( 'standard-webhooks', rotated.body.secret ) ) ).status
		).toBe( 202 );

		// A provider-issued secret (Stripe rolls its own), with no grace: the old one stops at once.
		const stripe = await createSource( 'admin-stripe-e2e', 'stripe' );
		const rolled = 'whsec_rolled0123456789abcdef0123456789';
		const roll = await admin.post< Record< string, unknown > >(
			`${ ADMIN }/sources/admin-stripe-e2e/rotate-secret`,
			{ secret: rolled, grace_hours: 0 }
		);
		expect( roll.status ).toBe( 200 );
		expect( roll.body.secret ).toBeUndefined();
		const old = await sendWebhook( 'admin-stripe-e2e', sampleWebhook( 'stripe', stripe.secret ) );
		expect( { status: old.status, code: old.body.code } ).toEqual( { status: 401, code: 'invalid_signature' } );
		expect( ( await sendWebhook( 'admin-stripe-e2e', sampleWebhook( 'stripe', rolled ) ) ).status ).toBe( 202 );

		// The sidecar's errors come through with their status and code.
		for ( const [ call, status, code ] of [
			[ () => admin.get( `${ ADMIN }/sources/missing-e2e` ), 404, 'source_not_found' ],
			[ () => admin.post( `${ ADMIN }/sources`, { id: 'admin-e2e', scheme: 'github' } ), 409, 'source_exists' ],
			[ () => admin.post( `${ ADMIN }/sources`, { id: 'bad', scheme: 'paypal' } ), 400, 'invalid_body' ],
			[
				() => admin.post( `${ ADMIN }/sources`, { id: 'weak-e2e', scheme: 'github', secret: 'abc' } ),
				400,
				'invalid_secret',
			],
		] as const ) {
			const answer = await call();
			expect( { status: answer.status, code: ( answer.body as { code: string } ).code } ).toEqual( {
				status,
				code,
			} );
		}

		const deleted = await admin.request< { deleted: boolean } >( {
			method: 'DELETE',
			path: `${ ADMIN }/sources/admin-stripe-e2e`,
		} );
		expect( deleted.body ).toMatchObject( { deleted: true } );
		const gone = await sendWebhook( 'admin-stripe-e2e', sampleWebhook( 'stripe', rolled ) );
		expect( { status: gone.status, code: gone.body.code } ).toEqual( { status: 404, code: 'unknown_source' } );
	} );

	it( 'show the verification log and the stored events; a payload only one event at a time', async () => {
		const admin = adminClient();
		// Its own source and traffic: two verified events, and one refused while the source is disabled.
		const source = await createSource( 'admin-log-e2e', 'standard-webhooks' );
		for ( let i = 0; i < 2; i++ ) {
			expect(
				( await sendWebhook( 'admin-log-e2e', sampleWebhook( 'standard-webhooks', source.secret ) ) ).status
			).toBe( 202 );
		}
		expect(
			(
				await admin.request( {
					method: 'PATCH',
					path: `${ ADMIN }/sources/admin-log-e2e`,
					data: { status: 'disabled' },
				} )
			).status
		).toBe( 200 );
		expect(
			( await sendWebhook( 'admin-log-e2e', sampleWebhook( 'standard-webhooks', source.secret ) ) ).status
		).toBe( 403 );

		const log = await admin.get< { entries: Array< Record< string, unknown > >; total: number } >(
			`${ ADMIN }/log?source=admin-log-e2e`
		);
		expect( log.status ).toBe( 200 );
		expect( log.body.total ).toBeGreaterThanOrEqual( 3 );
		expect( Object.keys( log.body.entries[ 0 ] ?? {} ).sort() ).toEqual( [
			'answer_status',
			'at',
			'code',
			'event_id',
			'id',
			'outcome',
			'source',
			'status',
		] );
		expect( log.body.entries.some( ( entry ) => entry.code === 'source_disabled' ) ).toBe( true );
		const bad = await admin.get< { code: string } >( `${ ADMIN }/log?outcome=maybe` );
		expect( { status: bad.status, code: bad.body.code } ).toEqual( { status: 400, code: 'rest_invalid_param' } );

		const events = await admin.get< { events: InboundEvent[]; total: number; counts: Record< string, number > } >(
			`${ ADMIN }/events?source=admin-log-e2e&status=received&per_page=1`
		);
		expect( events.status ).toBe( 200 );
		expect( events.headers.get( 'x-wp-total' ) ).toBe( String( events.body.total ) );
		expect( events.body.counts ).toEqual( {
			received: expect.any( Number ),
			processed: expect.any( Number ),
			failed: expect.any( Number ),
		} );
		for ( const event of events.body.events ) {
			expect( event ).not.toHaveProperty( 'payload' );
			expect( event.source ).toBe( 'admin-log-e2e' );
		}
		const all = await admin.get< { events: InboundEvent[] } >( `${ ADMIN }/events?source=admin-log-e2e` );
		const first = all.body.events[ 0 ] as InboundEvent;
		const one = await admin.get< InboundEvent >( `${ ADMIN }/events/${ first.id }` );
		expect( JSON.parse( one.body.payload as string ) ).toMatchObject( { type: 'order.paid' } );
		// Both answers as their routes' schemas say (the admin page's types are generated from them).
		expect( [
			...( await schemaErrors( `${ ADMIN }/events`, events.body ) ),
			...( await schemaErrors( `${ ADMIN }/events/${ first.id }`, one.body ) ),
		] ).toEqual( [] );
		const fields = await admin.get< Record< string, unknown > >(
			`${ ADMIN }/events/${ first.id }?_fields=id,status&context=edit`
		);
		expect( fields.body ).toEqual( { id: first.id, status: first.status } );
		const badContext = await admin.get< { code: string } >( `${ ADMIN }/events?context=bogus` );
		expect( { status: badContext.status, code: badContext.body.code } ).toEqual( {
			status: 400,
			code: 'rest_invalid_param',
		} );

		const missing = await admin.get< { code: string } >( `${ ADMIN }/events/999999` );
		expect( { status: missing.status, code: missing.body.code } ).toEqual( {
			status: 404,
			code: 'inbound_event_not_found',
		} );
		const badStatus = await admin.get< { code: string } >( `${ ADMIN }/events?status=lost` );
		expect( badStatus.status ).toBe( 400 );
		await admin.request( { method: 'DELETE', path: `${ ADMIN }/sources/admin-log-e2e` } );
	} );
} );
