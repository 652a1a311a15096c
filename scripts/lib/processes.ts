import { execFileSync } from 'child_process';
import fs from 'fs';

/**
 * Processes a start leaves behind (the sidecar, the wp-env CLI, the Playground server) are
 * recorded in the environment's folder as soon as each starts, so `npm stop` and the next
 * start find them even when the starting process died before it wrote running.json. A pid
 * file can outlive its process and the pid be reused by someone else's: before a signal, the
 * process's command line (and, for the sidecar, its environment) must still say it is ours.
 */
export interface ProcessIdentity {
	/** What the process is, for messages. */
	label: string;
	/** Every string must appear in /proc/<pid>/cmdline. */
	cmdline: string[];
	/** Every NAME=value must be in /proc/<pid>/environ (checked where /proc exists). */
	environ?: string[];
	/** The process leads its own process group (spawned detached): signal the whole group. */
	group?: boolean;
}

export function recordPid( file: string, pid: number | undefined ): void {
	if ( pid ) {
		fs.writeFileSync( file, String( pid ) );
	}
}

export function readPid( file: string ): number | undefined {
	try {
		const pid = Number( fs.readFileSync( file, 'utf8' ).trim() );
		return Number.isInteger( pid ) && pid > 0 ? pid : undefined;
	} catch {
		return undefined;
	}
}

/** Removes a pid file only if it still names this pid (a newer start may have replaced it). */
export function forgetPid( file: string, pid: number | undefined ): void {
	if ( pid && readPid( file ) === pid ) {
		fs.rmSync( file, { force: true } );
	}
}

export function isAlive( pid: number ): boolean {
	try {
		process.kill( pid, 0 );
		return true;
	} catch ( error ) {
		return ( error as NodeJS.ErrnoException ).code === 'EPERM';
	}
}

function commandLine( pid: number ): string | undefined {
	try {
		return fs.readFileSync( `/proc/${ pid }/cmdline`, 'utf8' ).split( '\0' ).join( ' ' );
	} catch {
		if ( fs.existsSync( '/proc/self' ) ) {
			return undefined;
		}
	}
	try {
		// No /proc (macOS): ps prints the command line.
		return (
			execFileSync( 'ps', [ '-o', 'command=', '-p', String( pid ) ], { encoding: 'utf8' } ).trim() || undefined
		);
	} catch {
		return undefined;
	}
}

/** Whether pid is alive and still the process the identity describes. */
export function isOurProcess( pid: number, identity: ProcessIdentity ): boolean {
	if ( ! isAlive( pid ) ) {
		return false;
	}
	const cmdline = commandLine( pid );
	if ( cmdline === undefined || ! identity.cmdline.every( ( part ) => cmdline.includes( part ) ) ) {
		return false;
	}
	if ( identity.environ && fs.existsSync( `/proc/${ pid }/environ` ) ) {
		let environ: string[];
		try {
			environ = fs.readFileSync( `/proc/${ pid }/environ`, 'utf8' ).split( '\0' );
		} catch {
			return false;
		}
		return identity.environ.every( ( pair ) => environ.includes( pair ) );
	}
	return true;
}

function signal( pid: number, name: NodeJS.Signals, group: boolean ): void {
	try {
		process.kill( group ? -pid : pid, name );
	} catch {
		try {
			process.kill( pid, name );
		} catch {
			// Gone already.
		}
	}
}

/** SIGTERM, then SIGKILL after a grace period. Resolves once the process is gone. */
export async function terminate( pid: number, group = false, graceMs = 3000 ): Promise< void > {
	for ( const name of [ 'SIGTERM', 'SIGKILL' ] as const ) {
		signal( pid, name, group );
		const deadline = Date.now() + graceMs;
		while ( isAlive( pid ) && Date.now() < deadline ) {
			await new Promise( ( r ) => setTimeout( r, 100 ) );
		}
		if ( ! isAlive( pid ) ) {
			return;
		}
	}
}

/**
 * Stops the process a pid file names if it is still ours (SIGKILL after graceMs), and removes
 * the file. Returns a line saying what was stopped, or undefined when there was nothing to stop.
 */
export async function stopRecordedProcess(
	file: string,
	identity: ProcessIdentity,
	graceMs?: number
): Promise< string | undefined > {
	const pid = readPid( file );
	let stopped: string | undefined;
	if ( pid && isOurProcess( pid, identity ) ) {
		await terminate( pid, identity.group, graceMs );
		stopped = `${ identity.label } (pid ${ pid })`;
	}
	fs.rmSync( file, { force: true } );
	return stopped;
}
