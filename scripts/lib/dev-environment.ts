/**
 * The environment `npm start` runs (`dev` unless --env names another): whether it runs, a fresh
 * start, and whether its sidecar is stopped on purpose (dev-sidecar.ts). Light to load: the
 * scripts read it before they answer --help.
 */
import fs from 'fs';
import path from 'path';
import { adminPasswordFile, DEFAULT_ENV, environmentDir, ROOT, runFile, sidecarDataDir, siteCopyDir } from './paths';
import { isAlive } from './processes';
import type { Runtime } from './wp-env';

/** What running.json holds while `npm start` runs. */
export interface RunRecord {
	pid: number;
	runtime: Runtime;
}

/** The `npm start` running this environment, or undefined when none (no running.json, or its process is gone). */
export function readRunning( name: string ): RunRecord | undefined {
	let record: RunRecord;
	try {
		record = JSON.parse( fs.readFileSync( runFile( name ), 'utf8' ) ) as RunRecord;
	} catch {
		return undefined;
	}
	return isAlive( record.pid ) ? record : undefined;
}

/** A command of this project as a user types it for this environment (--env only when it is not the default). */
export function commandFor( name: string, command: string ): string {
	if ( name === DEFAULT_ENV ) {
		return command;
	}
	// npm passes options on to the script only after a `--`.
	return `${ command }${ command.includes( ' -- ' ) ? '' : ' --' } --env=${ name }`;
}

/** A path as the user sees it: relative to the repository when inside it. */
export function shown( file: string ): string {
	const relative = path.relative( ROOT, file );
	return relative.startsWith( '..' ) ? file : relative;
}

/**
 * `npm start -- --fresh`: empties what belongs to the old site, so the site and its sidecar
 * both start clean: the copy of WordPress with its SQLite database, the sidecar's data
 * (endpoints, inbound sources, deliveries) and the administrator application password that only
 * the old site knew. The shared key, the sidecar log and the builds stay. Returns the line to print.
 */
export function emptyEnvironment( name: string ): string {
	for ( const target of [ siteCopyDir( name ), sidecarDataDir( name ), adminPasswordFile( name ) ] ) {
		fs.rmSync( target, { recursive: true, force: true } );
	}
	return (
		`fresh start: emptied the site (WordPress and its SQLite database, ${ shown( siteCopyDir( name ) ) }), ` +
		`the sidecar's data (${ shown( sidecarDataDir( name ) ) }) and the admin application password`
	);
}

/** Present while the environment's sidecar is stopped on purpose (`npm run sidecar -- stop`). */
export function sidecarStoppedFile( name: string ): string {
	return path.join( environmentDir( name ), 'sidecar-stopped' );
}

export function isSidecarStoppedOnPurpose( name: string ): boolean {
	return fs.existsSync( sidecarStoppedFile( name ) );
}

/** A new `npm start`, or one that ends, forgets an earlier stop. */
export function forgetSidecarStopped( name: string ): void {
	fs.rmSync( sidecarStoppedFile( name ), { force: true } );
}
