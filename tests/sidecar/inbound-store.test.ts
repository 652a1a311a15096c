import mysql from 'mysql2/promise';
import { LOG_PRUNE_EVERY } from '../../sidecar/src/model/inbound';
import type { NewSource } from '../../sidecar/src/model/inbound';
import { openDatabase } from '../../sidecar/src/store/sqlite/database';
import { sqliteInboundStore } from '../../sidecar/src/store/sqlite/sqlite-inbound-store';
import { type InboundStore } from '../../sidecar/src/store/inbound-store';
import { MysqlInboundStore } from '../../sidecar/src/store/mysql/mysql-inbound';
import { STORE_KINDS, useBackend } from './support/stores-under-test';

const HOUR = 3_600_000;

function source( id: string, secret = `secret-of-${ id }` ): NewSource {
	return {
		id,
		scheme: 'github',
		status: 'active',
		description: '',
		toleranceSeconds: null,
		secret,
		origin: 'provided',
	};
}

/** As the verify route records them: a good signature unconfirmed until WordPress reports, a refusal with its 4xx. */
const verification = ( sourceId: string, outcome: 'unconfirmed' | 'refused', at: number ) => ( {
	at,
	source: sourceId,
	outcome,
	status: outcome === 'unconfirmed' ? 200 : 401,
	code: outcome === 'unconfirmed' ? null : 'invalid_signature',
	eventId: outcome === 'unconfirmed' ? `evt_${ at }` : null,
	answerStatus: outcome === 'unconfirmed' ? null : 401,
} );

/** The inbound store's semantics, the same on the embedded store and on MariaDB. */
describe.each( STORE_KINDS )( 'the inbound store on %s', ( kind ) => {
	const backend = useBackend( kind );

	it( 'creates a source with its first secret once; a taken id writes nothing', async () => {
		const { inbound } = await backend.open();
		const created = await inbound.createSource( { ...source( 'acme' ), toleranceSeconds: 600 }, 1000 );
		expect( created ).toEqual( {
			id: 'acme',
			scheme: 'github',
			status: 'active',
			description: '',
			toleranceSeconds: 600,
			createdAt: 1000,
			updatedAt: 1000,
			secrets: [ { secret: 'secret-of-acme', origin: 'provided', createdAt: 1000, expiresAt: null } ],
		} );
		expect( await inbound.createSource( source( 'acme', 'another-secret' ), 2000 ) ).toBeUndefined();
		expect( await inbound.listSources( 3000 ) ).toEqual( [ created ] );
		// Ids are case-sensitive, as in the receiving URL.
		expect( await inbound.getSource( 'ACME', 3000 ) ).toBeUndefined();
	} );

	it( 'changes only the given fields; null tolerance means the default; unknown ids are undefined', async () => {
		const { inbound } = await backend.open();
		await inbound.createSource( { ...source( 'acme' ), toleranceSeconds: 600, description: 'Acme' }, 1000 );
		const disabled = await inbound.updateSource( 'acme', { status: 'disabled' }, 2000 );
		expect( disabled ).toMatchObject( {
			status: 'disabled',
			description: 'Acme',
			toleranceSeconds: 600,
			updatedAt: 2000,
		} );
		const reset = await inbound.updateSource( 'acme', { toleranceSeconds: null, scheme: 'shopify' }, 3000 );
		expect( reset ).toMatchObject( { status: 'disabled', scheme: 'shopify', toleranceSeconds: null } );
		expect( reset?.secrets ).toHaveLength( 1 );
		expect( await inbound.updateSource( 'nope', { status: 'active' }, 3000 ) ).toBeUndefined();
		expect( await inbound.rotateSourceSecret( 'nope', 'x'.repeat( 16 ), 'provided', HOUR, 3000 ) ).toBeUndefined();
	} );

	it( 'rotates: the old secret is accepted until its grace ends, a shorter grace shortens every older one, none is ever lengthened', async () => {
		const { inbound } = await backend.open();
		await inbound.createSource( source( 'acme', 'first-secret' ), 0 );
		const once = await inbound.rotateSourceSecret( 'acme', 'second-secret', 'provided', 48 * HOUR, 1000 );
		expect( once?.secrets.map( ( s ) => [ s.secret, s.expiresAt ] ) ).toEqual( [
			[ 'second-secret', null ],
			[ 'first-secret', 1000 + 48 * HOUR ],
		] );
		const twice = await inbound.rotateSourceSecret( 'acme', 'third-secret', 'generated', HOUR, 2000 );
		expect( twice?.secrets.map( ( s ) => [ s.secret, s.origin, s.expiresAt ] ) ).toEqual( [
			[ 'third-secret', 'generated', null ],
			[ 'second-secret', 'provided', 2000 + HOUR ],
			[ 'first-secret', 'provided', 2000 + HOUR ],
		] );
		const longer = await inbound.rotateSourceSecret( 'acme', 'fourth-secret', 'provided', 48 * HOUR, 3000 );
		expect( longer?.secrets.map( ( s ) => s.expiresAt ) ).toEqual( [
			null,
			3000 + 48 * HOUR,
			2000 + HOUR,
			2000 + HOUR,
		] );
		// Past a grace, the secret is no longer read; a rotation with no grace drops the current one at once.
		expect( ( await inbound.getSource( 'acme', 2000 + HOUR ) )?.secrets.map( ( s ) => s.secret ) ).toEqual( [
			'fourth-secret',
			'third-secret',
		] );
		const now = 2000 + HOUR;
		expect(
			( await inbound.rotateSourceSecret( 'acme', 'fifth-secret', 'provided', 0, now ) )?.secrets.map(
				( s ) => s.secret
			)
		).toEqual( [ 'fifth-secret' ] );
		expect( ( await inbound.getSource( 'acme', 0 ) )?.secrets.map( ( s ) => s.secret ) ).toEqual( [
			'fifth-secret',
		] );
	} );

	it( 'keeps one current secret when rotations through several instances race', async () => {
		const stores = [ await backend.open(), await backend.open() ];
		await stores[ 0 ]!.inbound.createSource( source( 'acme', 'secret-0' ), 0 );
		await Promise.all(
			Array.from( { length: 10 }, ( _, n ) =>
				stores[ n % 2 ]!.inbound.rotateSourceSecret( 'acme', `secret-${ n + 1 }`, 'provided', HOUR, 1000 + n )
			)
		);
		const secrets = ( await stores[ 1 ]!.inbound.getSource( 'acme', 1000 ) )?.secrets ?? [];
		expect( secrets ).toHaveLength( 11 );
		expect( secrets.filter( ( s ) => s.expiresAt === null ) ).toHaveLength( 1 );
	} );

	it( 'deletes a source with its secrets and keeps its log rows', async () => {
		const { inbound } = await backend.open();
		await inbound.createSource( source( 'acme' ), 0 );
		const id = await inbound.recordVerification( verification( 'acme', 'unconfirmed', 1 ) );
		expect( await inbound.deleteSource( 'acme' ) ).toBe( true );
		expect( await inbound.deleteSource( 'acme' ) ).toBe( false );
		expect( await inbound.getSource( 'acme', 0 ) ).toBeUndefined();
		// Created again, it starts with only its new secret.
		expect( ( await inbound.createSource( source( 'acme', 'new-secret' ), 5 ) )?.secrets ).toHaveLength( 1 );
		expect( ( await inbound.listVerifications( { page: 1, perPage: 20 } ) ).entries.map( ( e ) => e.id ) ).toEqual(
			[ id ]
		);
	} );

	it( 'logs verifications newest first, filters and pages them, and keeps an answer', async () => {
		const { inbound } = await backend.open();
		const ids: number[] = [];
		for ( let n = 0; n < 5; n++ ) {
			ids.push(
				await inbound.recordVerification(
					verification( n % 2 ? 'beta' : 'alpha', n === 4 ? 'refused' : 'unconfirmed', n )
				)
			);
		}
		expect( [ ...ids ].sort( ( x, y ) => x - y ) ).toEqual( ids );
		const alpha = await inbound.listVerifications( { source: 'alpha', page: 1, perPage: 2 } );
		expect( alpha.total ).toBe( 3 );
		expect( alpha.entries.map( ( e ) => e.id ) ).toEqual( [ ids[ 4 ], ids[ 2 ] ] );
		const second = await inbound.listVerifications( { source: 'alpha', page: 2, perPage: 2 } );
		expect( second.entries.map( ( e ) => e.id ) ).toEqual( [ ids[ 0 ] ] );
		const refused = await inbound.listVerifications( { outcome: 'refused', page: 1, perPage: 20 } );
		expect( refused ).toEqual( {
			total: 1,
			entries: [
				{
					id: ids[ 4 ],
					at: 4,
					source: 'alpha',
					outcome: 'refused',
					status: 401,
					code: 'invalid_signature',
					eventId: null,
					answerStatus: 401,
				},
			],
		} );
		// WordPress's report settles an unconfirmed entry: verified only on a 2xx.
		expect( await inbound.recordAnswer( ids[ 1 ] as number, { status: 202, code: null } ) ).toMatchObject( {
			id: ids[ 1 ],
			source: 'beta',
			outcome: 'verified',
			eventId: 'evt_1',
			answerStatus: 202,
		} );
		expect(
			await inbound.recordAnswer( ids[ 3 ] as number, { status: 503, code: 'inbound_store_unavailable' } )
		).toMatchObject( { outcome: 'not_stored', answerStatus: 503, code: 'inbound_store_unavailable' } );
		// The first report wins; an entry that already says what the sender got keeps it.
		expect( await inbound.recordAnswer( ids[ 1 ] as number, { status: 503, code: 'x' } ) ).toMatchObject( {
			outcome: 'verified',
			answerStatus: 202,
			code: null,
		} );
		expect( await inbound.recordAnswer( ids[ 4 ] as number, { status: 202, code: null } ) ).toMatchObject( {
			outcome: 'refused',
			answerStatus: 401,
		} );
		expect(
			( await inbound.listVerifications( { outcome: 'unconfirmed', page: 1, perPage: 20 } ) ).entries.map(
				( e ) => e.id
			)
		).toEqual( [ ids[ 2 ], ids[ 0 ] ] );
		expect( await inbound.recordAnswer( 999_999, { status: 202, code: null } ) ).toBeUndefined();
		expect( ( await inbound.listVerifications( { source: 'nobody', page: 1, perPage: 20 } ) ).total ).toBe( 0 );
	} );

	it( 'keeps the log bounded: every LOG_PRUNE_EVERY writes, only the newest rows stay', async () => {
		// A store of its own that keeps 10 rows, on the backend's database (opened once to migrate it).
		let inbound: InboundStore;
		let close: () => Promise< void >;
		if ( kind === 'sqlite' ) {
			const db = openDatabase( { dataDir: ':memory:' } );
			inbound = sqliteInboundStore( db, 10 );
			close = async () => {
				db.close();
			};
		} else {
			await backend.open();
			const pool = mysql.createPool( backend.url as string );
			inbound = new MysqlInboundStore( pool, 10 );
			close = () => pool.end();
		}
		try {
			for ( let n = 1; n < LOG_PRUNE_EVERY; n++ ) {
				await inbound.recordVerification( verification( 'flood', 'refused', n ) );
			}
			expect( ( await inbound.listVerifications( { page: 1, perPage: 1 } ) ).total ).toBe( LOG_PRUNE_EVERY - 1 );
			const last = await inbound.recordVerification( verification( 'flood', 'refused', LOG_PRUNE_EVERY ) );
			const kept = await inbound.listVerifications( { page: 1, perPage: 100 } );
			expect( kept.total ).toBe( 10 );
			expect( kept.entries[ 0 ]?.id ).toBe( last );
			expect( kept.entries.map( ( e ) => e.at ) ).toEqual(
				Array.from( { length: 10 }, ( _, n ) => LOG_PRUNE_EVERY - n )
			);
		} finally {
			await close();
		}
	} );
} );
