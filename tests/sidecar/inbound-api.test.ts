import { Webhook } from 'standardwebhooks';
import {
	FORWARDED_HEADER_PREFIX,
	INBOUND_DEADLINE_HEADER,
	INBOUND_SCHEMES,
} from '../../sidecar/src/contracts/constants';
import { providerSecret, sampleWebhook, signStandardWebhook, type SignedWebhook } from '../support/inbound-signers';
import { startHarness, type Harness } from './support/harness';

/** The inbound part of the /v1 API, against the real app and SQLite. */
describe( 'sidecar /v1/inbound', () => {
	let sidecar: Harness;

	beforeAll( async () => {
		sidecar = await startHarness();
	} );

	afterAll( async () => {
		await sidecar.close();
	} );

	const forwarded = ( headers: Record< string, string > ) =>
		Object.fromEntries(
			Object.entries( headers ).map( ( [ name, value ] ) => [ FORWARDED_HEADER_PREFIX + name, value ] )
		);
	const verify = ( id: string, webhook: SignedWebhook ) =>
		sidecar.api( 'POST', `/v1/inbound/sources/${ id }/verify`, webhook.body, {
			headers: forwarded( webhook.headers ),
		} );
	/** A Standard Webhooks source, and one delivery to it verified: the log id WordPress reports its answer under. */
	const verifiedLogId = async ( id: string ): Promise< number > => {
		const created = await sidecar.api( 'POST', '/v1/inbound/sources', { id, scheme: 'standard-webhooks' } );
		const verified = await verify( id, sampleWebhook( 'standard-webhooks', created.body.secret as string ) );
		expect( verified.status ).toBe( 200 );
		return verified.body.log_id as number;
	};
	const tableCounts = () =>
		sidecar.stores.db
			.prepare(
				'SELECT (SELECT COUNT(*) FROM inbound_sources) AS sources, (SELECT COUNT(*) FROM inbound_source_secrets) AS secrets'
			)
			.get();

	describe( 'sources', () => {
		beforeAll( async () => {
			// The id the "taken id" case collides with.
			expect(
				(
					await sidecar.api( 'POST', '/v1/inbound/sources', {
						id: 'taken',
						scheme: 'github',
						secret: providerSecret( 'github' ),
					} )
				).status
			).toBe( 201 );
		} );

		it( 'creates a source with a generated secret, shown once, masked afterwards', async () => {
			const created = await sidecar.api( 'POST', '/v1/inbound/sources', {
				id: 'acme-sw',
				scheme: 'standard-webhooks',
				description: 'Acme',
			} );
			expect( created.status ).toBe( 201 );
			expect( created.headers.get( 'cache-control' ) ).toBe( 'no-store' );
			expect( created.body ).toEqual( {
				id: 'acme-sw',
				scheme: 'standard-webhooks',
				status: 'active',
				description: 'Acme',
				tolerance_seconds: 300,
				tolerance_is_default: true,
				secrets: [
					{
						masked: expect.stringMatching( /^whsec_….{4}$/ ),
						origin: 'generated',
						created_at: expect.any( String ),
						expires_at: null,
					},
				],
				created_at: expect.any( String ),
				updated_at: expect.any( String ),
				secret: expect.stringMatching( /^whsec_[A-Za-z0-9+/]{43}=$/ ),
			} );
			const secret = created.body.secret as string;
			for ( const read of [
				await sidecar.api( 'GET', '/v1/inbound/sources/acme-sw' ),
				await sidecar.api( 'GET', '/v1/inbound/sources' ),
			] ) {
				expect( read.status ).toBe( 200 );
				expect( read.text ).not.toContain( secret.slice( 6, 30 ) );
				expect( read.text ).not.toContain( '"secret"' );
			}
			expect( sidecar.logText() ).not.toContain( secret.slice( 6, 30 ) );
		} );

		it( 'takes a provider-given secret and does not echo it back', async () => {
			const secret = providerSecret( 'stripe' ) as string;
			const created = await sidecar.api( 'POST', '/v1/inbound/sources', {
				id: 'acme-stripe',
				scheme: 'stripe',
				secret,
				tolerance_seconds: 600,
			} );
			expect( created.status ).toBe( 201 );
			expect( created.body.secret ).toBeUndefined();
			expect( created.text ).not.toContain( secret );
			expect( created.body ).toMatchObject( {
				tolerance_seconds: 600,
				tolerance_is_default: false,
				secrets: [ { masked: `whsec_…${ secret.slice( -4 ) }`, origin: 'provided' } ],
			} );
		} );

		it.each( [
			[ 'an id that is not a slug', { id: 'Acme Shop', scheme: 'github' }, 400, 'invalid_body' ],
			[ 'an id that is too long', { id: 'a'.repeat( 65 ), scheme: 'github' }, 400, 'invalid_body' ],
			[ 'an unknown scheme', { id: 'x1', scheme: 'paypal' }, 400, 'invalid_body' ],
			[ 'no scheme', { id: 'x1' }, 400, 'invalid_body' ],
			[ 'an unknown field', { id: 'x1', scheme: 'github', url: 'x' }, 400, 'invalid_body' ],
			[ 'a tolerance out of range', { id: 'x1', scheme: 'stripe', tolerance_seconds: -1 }, 400, 'invalid_body' ],
			[ 'a short secret', { id: 'x1', scheme: 'github', secret: 'abc' }, 400, 'invalid_secret' ],
			[
				'a secret with spaces around it',
				{ id: 'x1', scheme: 'shopify', secret: ' shpss_0123456789abcdef ' },
				400,
				'invalid_secret',
			],
			[
				'a Standard Webhooks secret that is not base64',
				{ id: 'x1', scheme: 'standard-webhooks', secret: 'whsec_not-base64-at-all!!' },
				400,
				'invalid_secret',
			],
			[ 'a taken id', { id: 'taken', scheme: 'github' }, 409, 'source_exists' ],
		] )( 'refuses %s and writes nothing', async ( _label, body, status, code ) => {
			const before = tableCounts();
			const answer = await sidecar.api( 'POST', '/v1/inbound/sources', body );
			expect( { status: answer.status, code: answer.body.code } ).toEqual( { status, code } );
			expect( tableCounts() ).toEqual( before );
		} );

		it( 'refuses malformed JSON with invalid_json', async () => {
			const answer = await sidecar.api( 'POST', '/v1/inbound/sources', '{"id":' );
			expect( { status: answer.status, code: answer.body.code } ).toEqual( {
				status: 400,
				code: 'invalid_json',
			} );
		} );

		it( 'changes description, tolerance and status; a scheme change must suit the secret', async () => {
			const created = await sidecar.api( 'POST', '/v1/inbound/sources', {
				id: 'patched-stripe',
				scheme: 'stripe',
				secret: providerSecret( 'stripe' ),
				tolerance_seconds: 600,
			} );
			expect( created.status ).toBe( 201 );
			const patched = await sidecar.api( 'PATCH', '/v1/inbound/sources/patched-stripe', {
				description: 'Stripe live',
				tolerance_seconds: null,
				status: 'disabled',
			} );
			expect( patched.status ).toBe( 200 );
			expect( patched.body ).toMatchObject( {
				description: 'Stripe live',
				tolerance_seconds: 300,
				tolerance_is_default: true,
				status: 'disabled',
			} );
			// A WooCommerce secret (any characters) is no Standard Webhooks key (whsec_ + base64).
			expect(
				(
					await sidecar.api( 'POST', '/v1/inbound/sources', {
						id: 'acme-woo',
						scheme: 'woocommerce',
						secret: providerSecret( 'woocommerce' ),
					} )
				).status
			).toBe( 201 );
			const incompatible = await sidecar.api( 'PATCH', '/v1/inbound/sources/acme-woo', {
				scheme: 'standard-webhooks',
			} );
			expect( { status: incompatible.status, code: incompatible.body.code } ).toEqual( {
				status: 400,
				code: 'invalid_secret',
			} );
			const compatible = await sidecar.api( 'PATCH', '/v1/inbound/sources/patched-stripe', {
				scheme: 'github',
				status: 'active',
			} );
			expect( compatible.body ).toMatchObject( { scheme: 'github', status: 'active' } );
			for ( const [ body, code ] of [
				[ {}, 'invalid_body' ],
				[ { secret: 'whsec_0123456789abcdef' }, 'invalid_body' ],
				[ { status: 'paused' }, 'invalid_body' ],
			] as const ) {
				const answer = await sidecar.api( 'PATCH', '/v1/inbound/sources/patched-stripe', body );
				expect( { status: answer.status, code: answer.body.code } ).toEqual( { status: 400, code } );
			}
		} );

		it( 'answers 404 source_not_found and 405 with Allow', async () => {
			for ( const [ method, path ] of [
				[ 'GET', '/v1/inbound/sources/nope' ],
				[ 'PATCH', '/v1/inbound/sources/nope' ],
				[ 'DELETE', '/v1/inbound/sources/nope' ],
				[ 'POST', '/v1/inbound/sources/nope/rotate-secret' ],
				[ 'GET', '/v1/inbound/sources/NOT%20A%20SLUG' ],
			] as const ) {
				const answer = await sidecar.api( method, path, method === 'PATCH' ? { description: 'x' } : undefined );
				expect( { path, status: answer.status, code: answer.body.code } ).toEqual( {
					path,
					status: 404,
					code: 'source_not_found',
				} );
			}
			const wrong = await sidecar.api( 'PUT', '/v1/inbound/sources' );
			expect( wrong.status ).toBe( 405 );
			expect( wrong.headers.get( 'allow' ) ).toBe( 'GET, POST' );
			expect( ( await sidecar.api( 'GET', '/v1/inbound/sources/acme-sw/verify' ) ).status ).toBe( 405 );
		} );

		it( 'is signed like the rest of /v1: an unsigned call is refused', async () => {
			const answer = await sidecar.api( 'GET', '/v1/inbound/sources', undefined, { key: false } );
			expect( { status: answer.status, code: answer.body.code } ).toEqual( {
				status: 401,
				code: 'channel_signature_missing',
			} );
			const forged = await sidecar.api( 'POST', '/v1/inbound/sources/acme-sw/verify', '{}', {
				key: 'not-the-shared-key-0123456789',
			} );
			expect( forged.status ).toBe( 401 );
		} );
	} );

	describe( 'verification, per scheme', () => {
		it.each( [ ...INBOUND_SCHEMES ] )(
			'%s: a webhook signed by the provider verifies and is normalised',
			async ( scheme ) => {
				const id = `verify-${ scheme }`;
				const given = providerSecret( scheme );
				const created = await sidecar.api( 'POST', '/v1/inbound/sources', { id, scheme, secret: given } );
				expect( created.status ).toBe( 201 );
				const webhook = sampleWebhook( scheme, given ?? ( created.body.secret as string ) );
				const answer = await verify( id, webhook );
				expect( answer.status ).toBe( 200 );
				const bodyTyped = scheme === 'standard-webhooks' || scheme === 'stripe';
				expect( answer.body ).toEqual( {
					source: id,
					event_id: webhook.expected.eventId,
					event_id_source:
						scheme === 'standard-webhooks' ? 'header' : scheme === 'stripe' ? 'payload' : 'digest',
					delivery_id: webhook.expected.deliveryId ?? null,
					type: webhook.expected.type,
					data: webhook.expected.data,
					data_pointer: bodyTyped ? '/data' : '',
					signed_at: bodyTyped ? expect.stringMatching( /Z$/ ) : null,
					// Where WordPress reports what it answered the sender.
					log_id: expect.any( Number ),
				} );
			}
		);

		it( 'only forwarded headers count: the same headers without the x-si-fwd- prefix are not the provider’s', async () => {
			const created = await sidecar.api( 'POST', '/v1/inbound/sources', {
				id: 'prefix-check',
				scheme: 'standard-webhooks',
			} );
			const webhook = sampleWebhook( 'standard-webhooks', created.body.secret );
			const answer = await sidecar.api( 'POST', '/v1/inbound/sources/prefix-check/verify', webhook.body, {
				headers: webhook.headers,
			} );
			expect( { status: answer.status, code: answer.body.code } ).toEqual( {
				status: 401,
				code: 'missing_signature',
			} );
		} );

		it( 'keeps the body bytes exact: non-ASCII and odd spacing verify as sent', async () => {
			const created = await sidecar.api( 'POST', '/v1/inbound/sources', {
				id: 'bytes',
				scheme: 'standard-webhooks',
			} );
			const body = '{ "type" : "note.created",\n  "data": {"text":"Größe – 東京 – \\u00e9 😀", "n": 1.50 } }';
			const answer = await verify( 'bytes', signStandardWebhook( created.body.secret, 'msg_bytes', body ) );
			expect( answer.status ).toBe( 200 );
			expect( answer.body.data ).toEqual( { text: 'Größe – 東京 – é 😀', n: 1.5 } );
		} );
	} );

	describe( 'secret rotation', () => {
		it( 'generated: the new secret is shown once; the old one still verifies during the grace period', async () => {
			const created = await sidecar.api( 'POST', '/v1/inbound/sources', {
				id: 'rotating',
				scheme: 'standard-webhooks',
			} );
			const oldSecret = created.body.secret as string;
			const rotated = await sidecar.api( 'POST', '/v1/inbound/sources/rotating/rotate-secret' );
			expect( rotated.status ).toBe( 200 );
			expect( rotated.headers.get( 'cache-control' ) ).toBe( 'no-store' );
			const newSecret = rotated.body.secret as string;
			expect( newSecret ).toMatch( /^whsec_/ );
			expect( newSecret ).not.toBe( oldSecret );
			expect( rotated.body.secrets ).toEqual( [
				{
					masked: expect.any( String ),
					origin: 'generated',
					created_at: expect.any( String ),
					expires_at: null,
				},
				{
					masked: expect.any( String ),
					origin: 'generated',
					created_at: expect.any( String ),
					expires_at: expect.any( String ),
				},
			] );
			const graceEnds = Date.parse( rotated.body.secrets[ 1 ].expires_at ) - Date.now();
			expect( graceEnds ).toBeGreaterThan( 23.9 * 3_600_000 );
			expect( graceEnds ).toBeLessThanOrEqual( 24 * 3_600_000 );
			expect( ( await verify( 'rotating', sampleWebhook( 'standard-webhooks', oldSecret ) ) ).status ).toBe(
				200
			);
			expect( ( await verify( 'rotating', sampleWebhook( 'standard-webhooks', newSecret ) ) ).status ).toBe(
				200
			);
		} );

		it( 'provided, with no grace: the old secret stops verifying at once, the new one is not echoed', async () => {
			const first = providerSecret( 'github' ) as string;
			const second = providerSecret( 'github' ) as string;
			expect(
				(
					await sidecar.api( 'POST', '/v1/inbound/sources', {
						id: 'gh-rotate',
						scheme: 'github',
						secret: first,
					} )
				).status
			).toBe( 201 );
			const rotated = await sidecar.api( 'POST', '/v1/inbound/sources/gh-rotate/rotate-secret', {
				secret: second,
				grace_hours: 0,
			} );
			expect( rotated.status ).toBe( 200 );
			expect( rotated.body.secret ).toBeUndefined();
			expect( rotated.text ).not.toContain( second );
			expect( rotated.body.secrets ).toEqual( [
				expect.objectContaining( { origin: 'provided', expires_at: null } ),
			] );
			const old = await verify( 'gh-rotate', sampleWebhook( 'github', first ) );
			expect( { status: old.status, code: old.body.code } ).toEqual( { status: 401, code: 'invalid_signature' } );
			expect( ( await verify( 'gh-rotate', sampleWebhook( 'github', second ) ) ).status ).toBe( 200 );
		} );

		it( 'a second rotation never extends an older secret’s grace', async () => {
			expect(
				(
					await sidecar.api( 'POST', '/v1/inbound/sources', {
						id: 'twice',
						scheme: 'shopify',
						secret: providerSecret( 'shopify' ),
					} )
				).status
			).toBe( 201 );
			await sidecar.api( 'POST', '/v1/inbound/sources/twice/rotate-secret', { grace_hours: 1 } );
			const again = await sidecar.api( 'POST', '/v1/inbound/sources/twice/rotate-secret', { grace_hours: 48 } );
			const expiries = ( again.body.secrets as Array< { expires_at: string | null } > ).map(
				( s ) => s.expires_at
			);
			expect( expiries[ 0 ] ).toBeNull();
			// The first secret keeps its 1 h grace; the second gets 48 h.
			expect( Date.parse( expiries[ 1 ] as string ) ).toBeGreaterThan( Date.parse( expiries[ 2 ] as string ) );
			expect( Date.parse( expiries[ 2 ] as string ) - Date.now() ).toBeLessThanOrEqual( 3_600_000 );
		} );

		it( 'refuses an unusable provided secret', async () => {
			expect(
				(
					await sidecar.api( 'POST', '/v1/inbound/sources', {
						id: 'unusable-secret',
						scheme: 'shopify',
						secret: providerSecret( 'shopify' ),
					} )
				).status
			).toBe( 201 );
			const answer = await sidecar.api( 'POST', '/v1/inbound/sources/unusable-secret/rotate-secret', {
				secret: 'short',
			} );
			expect( { status: answer.status, code: answer.body.code } ).toEqual( {
				status: 400,
				code: 'invalid_secret',
			} );
		} );
	} );

	describe( 'log', () => {
		it( 'records each verification (verified/refused, code, event id) with no payload, header or secret', async () => {
			const created = await sidecar.api( 'POST', '/v1/inbound/sources', {
				id: 'logged',
				scheme: 'standard-webhooks',
			} );
			const secret = created.body.secret as string;
			const good = sampleWebhook( 'standard-webhooks', secret, {
				eventId: 'msg_logged_1',
				data: { card: '4242-secret-payload' },
			} );
			expect( ( await verify( 'logged', good ) ).status ).toBe( 200 );
			const bad = {
				...good,
				headers: {
					...good.headers,
					'webhook-signature': new Webhook( 'whsec_' + Buffer.alloc( 32, 1 ).toString( 'base64' ) ).sign(
						'msg_logged_1',
						new Date(),
						good.body
					),
				},
			};
			expect( ( await verify( 'logged', bad ) ).status ).toBe( 401 );
			expect( ( await verify( 'logged-missing', good ) ).status ).toBe( 404 );

			const log = await sidecar.api( 'GET', '/v1/inbound/log?source=logged' );
			expect( log.status ).toBe( 200 );
			expect( log.body ).toMatchObject( { total: 2, page: 1, per_page: 20 } );
			expect( log.body.entries ).toEqual( [
				{
					id: expect.any( Number ),
					at: expect.any( String ),
					source: 'logged',
					outcome: 'refused',
					status: 401,
					code: 'invalid_signature',
					event_id: null,
					// WordPress passes the refusal to the sender unchanged.
					answer_status: 401,
				},
				{
					id: expect.any( Number ),
					at: expect.any( String ),
					source: 'logged',
					// A good signature, but nobody has said yet what the sender got: not "verified".
					outcome: 'unconfirmed',
					status: 200,
					code: null,
					event_id: 'msg_logged_1',
					answer_status: null,
				},
			] );
			const unknown = await sidecar.api( 'GET', '/v1/inbound/log?source=logged-missing&outcome=refused' );
			expect( unknown.body.entries ).toEqual( [
				expect.objectContaining( { code: 'unknown_source', status: 404 } ),
			] );
			const everything =
				JSON.stringify( sidecar.stores.db.prepare( 'SELECT * FROM inbound_log' ).all() ) + sidecar.logText();
			expect( everything ).not.toContain( '4242-secret-payload' );
			expect( everything ).not.toContain( secret.slice( 6 ) );
			expect( everything ).not.toContain( good.headers[ 'webhook-signature' ] );
		} );

		it( 'keeps what WordPress answered the sender, reported under the log id the verdict gave', async () => {
			const created = await sidecar.api( 'POST', '/v1/inbound/sources', {
				id: 'answered',
				scheme: 'standard-webhooks',
			} );
			const webhook = sampleWebhook( 'standard-webhooks', created.body.secret as string, {
				eventId: 'msg_answered_1',
			} );
			const first = await verify( 'answered', webhook );
			const second = await verify( 'answered', webhook );
			expect( [ first.status, second.status ] ).toEqual( [ 200, 200 ] );
			expect( second.body.log_id ).toBeGreaterThan( first.body.log_id );

			// WordPress stored the first (202) and acknowledged the second as a duplicate (200).
			const reported = await sidecar.api( 'POST', `/v1/inbound/log/${ first.body.log_id }/answer`, {
				status: 202,
			} );
			expect( reported.status ).toBe( 200 );
			expect( reported.body ).toMatchObject( {
				id: first.body.log_id,
				outcome: 'verified',
				status: 200,
				answer_status: 202,
			} );
			expect(
				( await sidecar.api( 'POST', `/v1/inbound/log/${ second.body.log_id }/answer`, { status: 200 } ) )
					.status
			).toBe( 200 );

			const log = await sidecar.api( 'GET', '/v1/inbound/log?source=answered' );
			expect(
				log.body.entries.map(
					( entry: { id: number; outcome: string; status: number; answer_status: number | null } ) => [
						entry.id,
						entry.outcome,
						entry.status,
						entry.answer_status,
					]
				)
			).toEqual( [
				[ second.body.log_id, 'verified', 200, 200 ],
				[ first.body.log_id, 'verified', 200, 202 ],
			] );
		} );

		it( 'a good signature WordPress could not store is not_stored, with the code the sender got; the first report wins', async () => {
			const path = `/v1/inbound/log/${ await verifiedLogId( 'not-stored' ) }/answer`;
			const reported = await sidecar.api( 'POST', path, { status: 503, code: 'inbound_store_unavailable' } );
			expect( reported.body ).toMatchObject( {
				outcome: 'not_stored',
				status: 200,
				answer_status: 503,
				code: 'inbound_store_unavailable',
			} );
			expect( ( await sidecar.api( 'POST', path, { status: 202 } ) ).body ).toMatchObject( {
				outcome: 'not_stored',
				answer_status: 503,
			} );
			expect(
				( await sidecar.api( 'GET', '/v1/inbound/log?source=not-stored&outcome=not_stored' ) ).body.total
			).toBe( 1 );
		} );

		it( 'asked after WordPress’s deadline (a frozen sidecar resumed): 503, logged as timed_out with the 503 the sender got, never verified', async () => {
			const created = await sidecar.api( 'POST', '/v1/inbound/sources', {
				id: 'late',
				scheme: 'standard-webhooks',
			} );
			const webhook = sampleWebhook( 'standard-webhooks', created.body.secret as string );
			const late = await sidecar.api( 'POST', '/v1/inbound/sources/late/verify', webhook.body, {
				headers: { ...forwarded( webhook.headers ), [ INBOUND_DEADLINE_HEADER ]: String( Date.now() - 1000 ) },
			} );
			expect( { status: late.status, code: late.body.code } ).toEqual( { status: 503, code: 'deadline_passed' } );
			// Within the deadline, the same webhook verifies.
			const inTime = await sidecar.api( 'POST', '/v1/inbound/sources/late/verify', webhook.body, {
				headers: { ...forwarded( webhook.headers ), [ INBOUND_DEADLINE_HEADER ]: String( Date.now() + 2000 ) },
			} );
			expect( inTime.status ).toBe( 200 );

			const log = await sidecar.api( 'GET', '/v1/inbound/log?source=late' );
			expect( log.body.entries ).toEqual( [
				expect.objectContaining( { outcome: 'unconfirmed', status: 200, answer_status: null } ),
				expect.objectContaining( {
					outcome: 'timed_out',
					status: 503,
					code: 'sidecar_unreachable',
					event_id: null,
					answer_status: 503,
				} ),
			] );
			// WordPress had answered already: a report cannot make it verified.
			const timedOut = log.body.entries[ 1 ].id as number;
			expect(
				( await sidecar.api( 'POST', `/v1/inbound/log/${ timedOut }/answer`, { status: 202 } ) ).body
			).toMatchObject( { outcome: 'timed_out', answer_status: 503 } );
		} );

		it( 'refuses an answer for an unknown entry (404) or with a bad body (400), and changes nothing', async () => {
			const id = await verifiedLogId( 'answered-bad' );
			for ( const path of [
				'/v1/inbound/log/999999999/answer',
				'/v1/inbound/log/0/answer',
				'/v1/inbound/log/abc/answer',
				'/v1/inbound/log/1.5/answer',
			] ) {
				const answer = await sidecar.api( 'POST', path, { status: 202 } );
				expect( { path, status: answer.status, code: answer.body.code } ).toEqual( {
					path,
					status: 404,
					code: 'log_entry_not_found',
				} );
			}
			for ( const body of [
				{},
				{ status: '202' },
				{ status: 20.5 },
				{ status: 99 },
				{ status: 600 },
				{ status: 202, extra: 1 },
				{ status: 503, code: 'Not A Code' },
				[ 202 ],
			] ) {
				const answer = await sidecar.api( 'POST', `/v1/inbound/log/${ id }/answer`, body );
				expect( { body, status: answer.status, code: answer.body.code } ).toEqual( {
					body,
					status: 400,
					code: 'invalid_body',
				} );
			}
			const notJson = await sidecar.api( 'POST', `/v1/inbound/log/${ id }/answer`, '{status' );
			expect( { status: notJson.status, code: notJson.body.code } ).toEqual( {
				status: 400,
				code: 'invalid_json',
			} );
			expect( ( await sidecar.api( 'GET', `/v1/inbound/log/${ id }/answer` ) ).status ).toBe( 405 );
			const log = await sidecar.api( 'GET', '/v1/inbound/log?source=answered-bad' );
			expect( log.body.entries ).toEqual( [ expect.objectContaining( { id, answer_status: null } ) ] );
		} );

		it( 'pages newest first and validates its query', async () => {
			const created = await sidecar.api( 'POST', '/v1/inbound/sources', {
				id: 'paged',
				scheme: 'standard-webhooks',
			} );
			for ( const n of [ 1, 2, 3 ] ) {
				expect(
					(
						await verify(
							'paged',
							sampleWebhook( 'standard-webhooks', created.body.secret as string, {
								eventId: `msg_paged_${ n }`,
							} )
						)
					).status
				).toBe( 200 );
			}
			const page = await sidecar.api( 'GET', '/v1/inbound/log?source=paged&per_page=1&page=2' );
			expect( page.body ).toMatchObject( { total: 3, page: 2, per_page: 1 } );
			expect( page.body.entries ).toEqual( [ expect.objectContaining( { event_id: 'msg_paged_2' } ) ] );
			for ( const query of [ 'per_page=101', 'page=0', 'outcome=maybe', 'source=Not%20a%20slug', 'other=1' ] ) {
				const answer = await sidecar.api( 'GET', `/v1/inbound/log?${ query }` );
				expect( { query, status: answer.status, code: answer.body.code } ).toEqual( {
					query,
					status: 400,
					code: 'invalid_query',
				} );
			}
		} );
	} );

	it( 'deletes a source: it then refuses as unknown_source, and its secrets are gone', async () => {
		const created = await sidecar.api( 'POST', '/v1/inbound/sources', {
			id: 'deleted',
			scheme: 'standard-webhooks',
		} );
		const webhook = sampleWebhook( 'standard-webhooks', created.body.secret as string );
		expect( ( await verify( 'deleted', webhook ) ).status ).toBe( 200 );
		const deleted = await sidecar.api( 'DELETE', '/v1/inbound/sources/deleted' );
		expect( deleted.body ).toEqual( { deleted: true, id: 'deleted' } );
		const answer = await verify( 'deleted', webhook );
		expect( { status: answer.status, code: answer.body.code } ).toEqual( { status: 404, code: 'unknown_source' } );
		expect(
			sidecar.stores.db
				.prepare( "SELECT COUNT(*) AS n FROM inbound_source_secrets WHERE source_id = 'deleted'" )
				.get()
		).toEqual( { n: 0 } );
	} );
} );
