/**
 * The delivery benches' receiver, a child process of its own: answers 200 at once, counts
 * distinct webhook ids and every request, and the latency of each first arrival when the
 * body carries the driver's send time (`"sent_ns"`, process.hrtime: CLOCK_MONOTONIC, shared
 * by every process on the machine). Forked by ReceiverProcess (delivery-bench.ts).
 */
import http from 'http';
import type net from 'net';

export interface ReceiverStats {
	distinct: number;
	requests: number;
	/** ms from the driver's send time (in the event data) to the first arrival, per event. */
	latencies: number[];
}

function runReceiver(): void {
	let seen = new Set< string >();
	let requests = 0;
	let latencies: number[] = [];
	const server = http.createServer( ( req, res ) => {
		const chunks: Buffer[] = [];
		req.on( 'data', ( c: Buffer ) => chunks.push( c ) );
		req.on( 'end', () => {
			const arrived = process.hrtime.bigint();
			res.writeHead( 200, { 'content-type': 'text/plain' } ).end( 'ok' );
			requests++;
			const id = String( req.headers[ 'webhook-id' ] ?? '' );
			if ( seen.has( id ) ) {
				return;
			}
			seen.add( id );
			const match = /"sent_ns":"(\d+)"/.exec( Buffer.concat( chunks ).toString( 'utf8' ) );
			if ( match ) {
				latencies.push( Number( arrived - BigInt( match[ 1 ] as string ) ) / 1e6 );
			}
		} );
	} );
	server.keepAliveTimeout = 60_000;
	server.listen( 0, '127.0.0.1', () => {
		process.send?.( { port: ( server.address() as net.AddressInfo ).port } );
	} );
	process.on( 'message', ( message: { cmd: string } ) => {
		if ( message.cmd === 'reset' ) {
			seen = new Set();
			requests = 0;
			latencies = [];
			process.send?.( { ok: true } );
		} else if ( message.cmd === 'stats' ) {
			process.send?.( { distinct: seen.size, requests, latencies } satisfies ReceiverStats );
		}
	} );
	process.on( 'disconnect', () => process.exit( 0 ) );
}

if ( require.main === module ) {
	runReceiver();
}
