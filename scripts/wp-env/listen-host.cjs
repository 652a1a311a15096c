/**
 * Preloaded (NODE_OPTIONS=--require) into the processes wp-env starts for the Playground runtime
 * (scripts/lib/wp-env.ts): WordPress Playground's server (`wp-playground.js server`) listens with
 * a port and no address, i.e. on every interface, and neither it nor wp-env has an option for the
 * address. In that process only, a listen() given no address gets
 * SERVICE_INTEGRATION_WORDPRESS_HOST (127.0.0.1 unless npm start's --host says otherwise): the
 * site logs every browser in as administrator, so it must not answer the network by default.
 */
'use strict';

const net = require( 'net' );
const path = require( 'path' );

const host = process.env.SERVICE_INTEGRATION_WORDPRESS_HOST;

if ( host && path.basename( process.argv[ 1 ] || '' ) === 'wp-playground.js' ) {
	const listen = net.Server.prototype.listen;
	net.Server.prototype.listen = function ( ...args ) {
		const [ first ] = args;
		if ( typeof first === 'number' || ( typeof first === 'string' && /^\d+$/.test( first ) ) ) {
			// listen( port[, host][, backlog][, callback] )
			if ( typeof args[ 1 ] !== 'string' ) {
				args.splice( 1, 0, host );
			}
		} else if (
			first &&
			typeof first === 'object' &&
			first.port !== undefined &&
			first.host === undefined &&
			first.path === undefined
		) {
			// listen( { port[, backlog] }[, callback] )
			args[ 0 ] = { ...first, host };
		}
		return listen.apply( this, args );
	};
}
