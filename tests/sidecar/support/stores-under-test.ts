import mysql from 'mysql2/promise';
import { MysqlStore } from '../../../sidecar/src/store/mysql/mysql-store';
import { openDatabase, type Db } from '../../../sidecar/src/store/sqlite/database';
import type { Endpoint } from '../../../sidecar/src/model/endpoints';
import { sqliteQueueStore } from '../../../sidecar/src/store/sqlite/sqlite-queue-store';
import { type QueueStore } from '../../../sidecar/src/store/queue-store';
import { createStores } from '../../../sidecar/src/store/sqlite/stores';
import { startMariaDb, type RunningMariaDb } from '../../support/mariadb';

export type StoreKind = 'sqlite' | 'mysql';
export const STORE_KINDS: StoreKind[] = [ 'sqlite', 'mysql' ];

/**
 * One backend per test file: SQLite in memory, or a throwaway MariaDB (tests/support/mariadb.ts)
 * whose tables are dropped before each test, so every test also runs the migrations.
 */
export interface Backend {
	/** A store as one instance opens it; on MySQL, several calls are several instances on one database. */
	open: () => Promise< QueueStore >;
	/** Empties the database between tests. */
	reset: () => Promise< void >;
	/** Plain SQL on the store's database (the same statement must read the same on SQLite and MariaDB). */
	sql: < T = Record< string, unknown > >( query: string, params?: unknown[] ) => Promise< T[] >;
	url: string | undefined;
	stop: () => Promise< void >;
}

export async function startBackend( kind: StoreKind ): Promise< Backend > {
	if ( kind === 'sqlite' ) {
		let shared: QueueStore | undefined;
		let db: Db | undefined;
		return {
			url: undefined,
			// One process owns a SQLite file: every "instance" in a test is the same store.
			open: async () =>
				( shared ??= sqliteQueueStore( createStores( ( db = openDatabase( { dataDir: ':memory:' } ) ) ) ) ),
			reset: async () => {
				await shared?.close();
				shared = undefined;
				db = undefined;
			},
			sql: async < T >( query: string, params: unknown[] = [] ) => {
				if ( ! db ) {
					throw new Error( 'open the store first' );
				}
				const statement = db.prepare( query );
				return ( statement.reader ? statement.all( ...params ) : [ statement.run( ...params ) ] ) as T[];
			},
			stop: async () => {
				await shared?.close();
			},
		};
	}
	const server: RunningMariaDb = await startMariaDb( { name: 'store_test' } );
	const admin = await mysql.createConnection( server.url );
	const opened: QueueStore[] = [];
	return {
		url: server.url,
		open: async () => {
			const store = await MysqlStore.open( { url: server.url } );
			opened.push( store );
			return store;
		},
		reset: async () => {
			await Promise.all( opened.splice( 0 ).map( ( store ) => store.close() ) );
			const [ tables ] = await admin.query< mysql.RowDataPacket[] >( 'SHOW TABLES' );
			await admin.query( 'SET FOREIGN_KEY_CHECKS = 0' );
			for ( const row of tables ) {
				await admin.query( `DROP TABLE \`${ String( Object.values( row )[ 0 ] ) }\`` );
			}
			await admin.query( 'SET FOREIGN_KEY_CHECKS = 1' );
		},
		sql: async < T >( query: string, params: unknown[] = [] ) => {
			const [ rows ] = await admin.query( query, params );
			return rows as T[];
		},
		stop: async () => {
			await Promise.all( opened.splice( 0 ).map( ( store ) => store.close() ) );
			await admin.end();
			await server.stop();
		},
	};
}

/**
 * The backend of a describe block: started before its tests, stopped after them, and (unless
 * `reset: false`) emptied before each test. Call it in the block's body; use the returned
 * backend inside the tests.
 */
export function useBackend( kind: StoreKind, options: { reset?: boolean } = {} ): Backend {
	let current: Backend | undefined;
	const started = (): Backend => {
		if ( ! current ) {
			throw new Error( 'the backend starts in beforeAll: use it inside a test' );
		}
		return current;
	};
	beforeAll( async () => {
		current = await startBackend( kind );
	} );
	afterAll( async () => {
		await current?.stop();
	} );
	if ( options.reset !== false ) {
		beforeEach( () => started().reset() );
	}
	return {
		open: () => started().open(),
		reset: () => started().reset(),
		sql: < T = Record< string, unknown > >( query: string, params?: unknown[] ) =>
			started().sql< T >( query, params ),
		get url() {
			return started().url;
		},
		stop: () => started().stop(),
	};
}

/** An endpoint as the store tests create it: subscribed to `types` (all when empty), created at `now`. */
export function createTestEndpoint( store: QueueStore, types: Endpoint[ 'eventTypes' ] = [], now = 1000 ) {
	return store.createEndpoint(
		{
			url: 'https://hooks.example/x',
			description: '',
			eventTypes: types,
			maxConcurrency: 4,
			wcCompatSignature: false,
			secret: 'whsec_test',
		},
		now
	);
}
