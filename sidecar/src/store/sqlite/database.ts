import fs from 'fs';
import path from 'path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

export type SynchronousMode = 'NORMAL' | 'FULL' | 'EXTRA';

export interface OpenDatabaseOptions {
	/** Directory holding sidecar.db (created if missing); ':memory:' for a throwaway database. */
	dataDir: string;
	/**
	 * NORMAL (default): with WAL, a committed transaction survives a crash or SIGKILL
	 * of this process, because the commit is in the OS page cache before we answer.
	 * Only an OS crash or power loss can drop the last commits; FULL (fsync at every
	 * commit) is needed to survive those. SIDECAR_SQLITE_SYNCHRONOUS picks the mode.
	 */
	synchronous?: SynchronousMode;
	/**
	 * SQLite's page cache, in MB (default 2). better-sqlite3's own default is 16 MB, which a busy
	 * queue fills and keeps: pages beyond the cache are read again from the OS page cache.
	 */
	cacheSizeMb?: number;
	/** How long a writer waits for a lock held by another connection (e.g. a sqlite3 shell). */
	busyTimeoutMs?: number;
}

export const DATABASE_FILE = 'sidecar.db';
export const DEFAULT_CACHE_SIZE_MB = 2;

export function openDatabase( options: OpenDatabaseOptions ): Db {
	let file = ':memory:';
	if ( options.dataDir !== ':memory:' ) {
		fs.mkdirSync( options.dataDir, { recursive: true } );
		file = path.join( options.dataDir, DATABASE_FILE );
	}
	const db = new Database( file );
	try {
		db.pragma( 'journal_mode = WAL' );
		db.pragma( `synchronous = ${ options.synchronous ?? 'NORMAL' }` );
		// Negative: a size in KiB rather than in pages.
		db.pragma( `cache_size = -${ Math.floor( ( options.cacheSizeMb ?? DEFAULT_CACHE_SIZE_MB ) * 1024 ) }` );
		db.pragma( `busy_timeout = ${ options.busyTimeoutMs ?? 5000 }` );
		db.pragma( 'foreign_keys = ON' );
		migrate( db );
	} catch ( error ) {
		db.close();
		throw error;
	}
	return db;
}

/**
 * Versioned migrations: PRAGMA user_version holds the number of migrations applied.
 * Each runs in its own transaction with the version bump, so a crash mid-upgrade
 * leaves the previous version intact. A database newer than this code is refused
 * rather than guessed at.
 */
export function migrate( db: Db ): number {
	const current = db.pragma( 'user_version', { simple: true } ) as number;
	if ( current > MIGRATIONS.length ) {
		throw new Error(
			`The database schema is version ${ current }, newer than this sidecar knows (${ MIGRATIONS.length }); upgrade the sidecar.`
		);
	}
	for ( let version = current; version < MIGRATIONS.length; version++ ) {
		db.transaction( () => {
			db.exec( MIGRATIONS[ version ] as string );
			db.pragma( `user_version = ${ version + 1 }` );
		} ).immediate();
	}
	return MIGRATIONS.length;
}
