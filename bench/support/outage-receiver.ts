/**
 * The outage bench's receiver, a child process of its own: while "down" it answers every
 * delivery 503 at once (a receiver behind a proxy that is up while the service is not); once
 * "up", 200. It counts distinct webhook ids and every request, and checks the order of first
 * arrivals per ordering key: the driver's events carry their key (`"order_id"`) and their rank
 * in it (`"seq"`), and an event arriving first after a later one of its key is out of order.
 * Forked by OutageReceiver (outage-recovery.ts).
 */
import http from 'http';
import type net from 'net';

export interface OutageReceiverStats {
	/** Distinct event ids answered 200. */
	distinct: number;
	/** Requests answered 200 (a repeat of an id already delivered counts here, not in distinct). */
	delivered: number;
	/** Requests answered 503 while down. */
	refused: number;
	/** First arrivals that came after a later event of their key. */
	outOfOrder: number;
	/** process.hrtime of the last first arrival, in ms. */
	lastArrivalMs: number;
}

function runReceiver(): void {
	let down = false;
	let seen = new Set< string >();
	let latest = new Map< string, number >();
	let stats: OutageReceiverStats = { distinct: 0, delivered: 0, refused: 0, outOfOrder: 0, lastArrivalMs: 0 };
	const server = http.createServer( ( req, res ) => {
		const chunks: Buffer[] = [];
		req.on( 'data', ( c: Buffer ) => chunks.push( c ) );
		req.on( 'end', () => {
			if ( down ) {
				stats.refused++;
				res.writeHead( 503, { 'content-type': 'text/plain' } ).end( 'down' );
				return;
			}
			res.writeHead( 200, { 'content-type': 'text/plain' } ).end( 'ok' );
			stats.delivered++;
			const id = String( req.headers[ 'webhook-id' ] ?? '' );
			if ( seen.has( id ) ) {
				return;
			}
			seen.add( id );
			stats.distinct++;
			stats.lastArrivalMs = Number( process.hrtime.bigint() / 1_000_000n );
			const body = Buffer.concat( chunks ).toString( 'utf8' );
			const key = /"order_id":(\d+)/.exec( body )?.[ 1 ];
			const seq = Number( /"seq":(\d+)/.exec( body )?.[ 1 ] );
			if ( key === undefined || Number.isNaN( seq ) ) {
				return;
			}
			if ( seq < ( latest.get( key ) ?? -1 ) ) {
				stats.outOfOrder++;
			} else {
				latest.set( key, seq );
			}
		} );
	} );
	server.keepAliveTimeout = 60_000;
	server.listen( 0, '127.0.0.1', () => {
		process.send?.( { port: ( server.address() as net.AddressInfo ).port } );
	} );
	process.on( 'message', ( message: { cmd: 'down' | 'up' | 'reset' | 'stats' } ) => {
		if ( message.cmd === 'down' || message.cmd === 'up' ) {
			down = message.cmd === 'down';
			process.send?.( { ok: true } );
		} else if ( message.cmd === 'reset' ) {
			seen = new Set();
			latest = new Map();
			stats = { distinct: 0, delivered: 0, refused: 0, outOfOrder: 0, lastArrivalMs: 0 };
			process.send?.( { ok: true } );
		} else {
			process.send?.( stats );
		}
	} );
	process.on( 'disconnect', () => process.exit( 0 ) );
}

if ( require.main === module ) {
	runReceiver();
}
