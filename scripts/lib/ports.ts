import net from 'net';

/** Whether `host:port` can be listened on now (false: another process holds it, or the address is not ours). */
export function canListen( port: number, host: string ): Promise< boolean > {
	return new Promise( ( resolve ) => {
		const server = net.createServer();
		server.once( 'error', () => resolve( false ) );
		server.listen( port, host, () => server.close( () => resolve( true ) ) );
	} );
}

/** A port a start is about to listen on, and the option that changes it. */
export interface WantedPort {
	port: number;
	host: string;
	/** What listens there, e.g. "WordPress". */
	what: string;
	/** The option that picks another port, e.g. "--port". */
	option: string;
}

/**
 * Checks the ports before anything starts: undefined when all are free, else one message naming
 * each port taken and the option that changes it, and how to run a second environment beside.
 */
export async function portsInUse( wanted: WantedPort[], secondEnvironment: string ): Promise< string | undefined > {
	const taken: WantedPort[] = [];
	for ( const want of wanted ) {
		if ( ! ( await canListen( want.port, want.host ) ) ) {
			taken.push( want );
		}
	}
	if ( taken.length === 0 ) {
		return undefined;
	}
	const lines = taken.map(
		( { port, host, what, option } ) =>
			`port ${ port } (${ what }, on ${ host }) is in use by another process: choose another with ${ option }=<port> (who holds it: ss -ltnp 'sport = :${ port }')`
	);
	return `${ lines.join( '\n' ) }\nA second environment beside a running one needs its own name and ports: ${ secondEnvironment }`;
}
