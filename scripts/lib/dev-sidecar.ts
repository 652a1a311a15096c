/**
 * The sidecar of the environment `npm start` runs, stopped and started while WordPress keeps
 * running (`npm run sidecar -- stop|start|status`), so one can watch the plugin's outbox hold
 * events meanwhile.
 *
 * A sidecar stopped on purpose is told from a crash by a marker file (dev-environment.ts),
 * written before the signal and removed once a sidecar started again answers: `npm start` keeps
 * running through the first and ends on the second, as it always has, so a crash does not go
 * unnoticed. A sidecar started again is not `npm start`'s child: it is found by the pid file
 * every start of it writes (sidecar.pid, which `npm stop` reads too).
 */
import type { ChildProcess } from 'child_process';
import fs from 'fs';
import { forgetSidecarStopped, isSidecarStoppedOnPurpose, shown, sidecarStoppedFile } from './dev-environment';
import { sidecarDataDir } from './paths';
import { forgetPid, isOurProcess, readPid, recordPid, stopRecordedProcess } from './processes';
import { spawnSidecar, stopChild, waitForSidecar, withoutSidecarSettings } from './sidecar-process';
import { readSidecarLaunch, sidecarIdentity, sidecarLaunchFile, sidecarPidFile, type SidecarLaunch } from './stack';

/** The pid of the environment's sidecar when one of ours runs (the pid file is checked against the process). */
export function runningSidecarPid( name: string ): number | undefined {
	const pid = readPid( sidecarPidFile( name ) );
	return pid && isOurProcess( pid, sidecarIdentity( sidecarDataDir( name ) ) ) ? pid : undefined;
}

function launchOf( name: string ): SidecarLaunch {
	const launch = readSidecarLaunch( name );
	if ( ! launch ) {
		throw new Error(
			`${ shown( sidecarLaunchFile( name ) ) } is missing: stop this environment and run npm start again, which records how it starts the sidecar`
		);
	}
	return launch;
}

export interface SidecarStatus {
	url: string;
	/** The running sidecar's pid; undefined when it is stopped. */
	pid?: number;
	logFile?: string;
}

export function sidecarStatus( name: string ): SidecarStatus {
	const launch = launchOf( name );
	return { url: launch.url, pid: runningSidecarPid( name ), logFile: launch.options.logFile };
}

/**
 * How long a stop waits before SIGKILL: the sidecar's own shutdown grace for deliveries in
 * flight (SIDECAR_SHUTDOWN_GRACE_MS, 10 s by default), plus the 5 s it allows itself after it.
 */
function stopGraceMs( launch: SidecarLaunch ): number {
	// An empty variable counts as unset, as the sidecar reads it.
	const configured = Number( launch.options.extraEnv?.SIDECAR_SHUTDOWN_GRACE_MS || NaN );
	return ( Number.isFinite( configured ) && configured >= 0 ? configured : 10_000 ) + 6_000;
}

/** Stops the environment's sidecar on purpose; the pid it stopped, or undefined when none ran. */
export async function stopEnvironmentSidecar( name: string ): Promise< number | undefined > {
	const launch = launchOf( name );
	const pid = runningSidecarPid( name );
	if ( pid === undefined ) {
		return undefined;
	}
	// Before the signal: `npm start` reads it when it sees the sidecar exit.
	fs.writeFileSync( sidecarStoppedFile( name ), `${ new Date().toISOString() } npm run sidecar -- stop\n` );
	await stopRecordedProcess(
		sidecarPidFile( name ),
		sidecarIdentity( launch.options.dataDir ),
		stopGraceMs( launch )
	);
	return pid;
}

/**
 * Starts the environment's sidecar again, detached, exactly as `npm start` launched it (its
 * recorded options and SIDECAR_* settings; none of this shell's), and waits until it answers.
 * Returns its pid and whether it was running already.
 */
export async function startEnvironmentSidecar( name: string ): Promise< { pid: number; already: boolean } > {
	const launch = launchOf( name );
	const running = runningSidecarPid( name );
	if ( running !== undefined ) {
		forgetSidecarStopped( name );
		return { pid: running, already: true };
	}
	const child: ChildProcess = spawnSidecar(
		{ ...launch.options, detached: true },
		withoutSidecarSettings( process.env )
	);
	recordPid( sidecarPidFile( name ), child.pid );
	try {
		await waitForSidecar( launch.url, child );
	} catch ( error ) {
		await stopChild( child );
		forgetPid( sidecarPidFile( name ), child.pid );
		throw error;
	}
	child.unref();
	forgetSidecarStopped( name );
	return { pid: child.pid as number, already: false };
}

/** What `npm start` is told about its sidecar while it supervises it. */
export interface SidecarEvents {
	/** Stopped on purpose: WordPress keeps running. */
	stopped: () => void;
	/** Started again (`npm run sidecar -- start`) and answering. */
	started: ( pid: number ) => void;
	/** Exited without being asked to: `npm start` ends. */
	crashed: ( reason: string ) => void;
}

/**
 * Watches the environment's sidecar for `npm start`: its own child by its exit event, then,
 * once that was stopped on purpose, whichever sidecar the pid file names, every pollMs (a
 * started-again sidecar is no child of ours). Returns a function that stops watching.
 */
export function superviseSidecar(
	name: string,
	child: ChildProcess,
	events: SidecarEvents,
	pollMs = 1000
): () => void {
	let timer: NodeJS.Timeout | undefined;
	/** The started-again sidecar being watched, once it answers. */
	let watched: number | undefined;
	const poll = () => {
		const pid = runningSidecarPid( name );
		if ( pid !== undefined ) {
			// Until the marker is gone, a start is still waiting for the sidecar to answer.
			if ( pid !== watched && ! isSidecarStoppedOnPurpose( name ) ) {
				watched = pid;
				events.started( pid );
			}
			return;
		}
		if ( watched === undefined ) {
			return;
		}
		const gone = watched;
		watched = undefined;
		// The marker is written before the signal, so a stop on purpose is always seen here.
		if ( isSidecarStoppedOnPurpose( name ) ) {
			events.stopped();
		} else {
			events.crashed( `the sidecar (pid ${ gone }, started by npm run sidecar -- start) exited unexpectedly` );
		}
	};
	const onExit = ( code: number | null, signal: NodeJS.Signals | null ) => {
		if ( ! isSidecarStoppedOnPurpose( name ) ) {
			events.crashed( `the sidecar exited with ${ code === null ? `signal ${ signal }` : `code ${ code }` }` );
			return;
		}
		events.stopped();
		// Not unref'd: with the child gone, this timer is what keeps `npm start` running.
		timer = setInterval( poll, pollMs );
	};
	child.once( 'exit', onExit );
	return () => {
		child.off( 'exit', onExit );
		clearInterval( timer );
	};
}
