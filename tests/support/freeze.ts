import fs from 'fs';
import { waitUntil } from './wait-until';

/**
 * Whether every thread of the process is stopped: its state in /proc/<pid>/task/<tid>/stat is
 * "T" (stopped by a signal). A thread that has exited meanwhile counts as stopped.
 */
function allThreadsStopped( pid: number ): boolean {
	return fs.readdirSync( `/proc/${ pid }/task` ).every( ( tid ) => {
		try {
			// The state follows the command name, which is in parentheses and may hold spaces.
			const stat = fs.readFileSync( `/proc/${ pid }/task/${ tid }/stat`, 'utf8' );
			return stat.slice( stat.lastIndexOf( ')' ) + 2 ).startsWith( 'T' );
		} catch {
			return true;
		}
	} );
}

/**
 * Freezes processes (SIGSTOP), as an overloaded or swapped-out process would be: their ports
 * stay open and the kernel still accepts connections, but nothing answers until `thaw`
 * (SIGCONT), after which they handle what they had been sent. kill() only queues the signal: a
 * thread running on another core can still answer a request sent at once, so this resolves once
 * every thread is seen stopped. Always thaw (try/finally).
 */
export async function freeze( pids: number[] ): Promise< { thaw: () => void } > {
	const thaw = () => {
		for ( const pid of pids ) {
			process.kill( pid, 'SIGCONT' );
		}
	};
	try {
		for ( const pid of pids ) {
			process.kill( pid, 'SIGSTOP' );
		}
		await waitUntil(
			async () => pids.every( allThreadsStopped ),
			5_000,
			`pids ${ pids.join( ', ' ) } stopped`,
			10
		);
	} catch ( error ) {
		thaw();
		throw error;
	}
	return { thaw };
}
