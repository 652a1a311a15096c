import { adminClient } from './clients';
import { readState } from './environment';
import { RestClient, type RestResult } from '../../../scripts/lib/rest-client';
import { sleep } from '../../support/wait-until';
import type { PaidOrder } from '../../support/paid-order-shape';

export const PAID_ORDERS = '/service-integration/v1/commandes-payees';

export type { PaidOrder } from '../../support/paid-order-shape';

export function query( params: Record< string, string | number | undefined > ): string {
	const entries = Object.entries( params ).filter( ( [ , value ] ) => value !== undefined ) as Array<
		[ string, string | number ]
	>;
	return entries.length
		? `${ PAID_ORDERS }?${ new URLSearchParams( entries.map( ( [ k, v ] ) => [ k, String( v ) ] ) ).toString() }`
		: PAID_ORDERS;
}

export function listPaid(
	client: RestClient,
	params: Record< string, string | number | undefined > = {}
): Promise< RestResult< PaidOrder[] > > {
	return client.get< PaidOrder[] >( query( params ) );
}

/** The endpoint's default settle delay: the sync order (orderby=paid_at) serves payments at least this old. */
export const SETTLE_SECONDS = 5;

/**
 * Resolves once every given order's payment is older than the settle delay (plus a second
 * for the clock's rounding), so the sync order serves them all.
 */
export async function untilSettled(
	orders: Array< Partial< Pick< PaidOrder, 'date_paid' | 'paid_at' > > >
): Promise< void > {
	const paidAt = ( o: Partial< Pick< PaidOrder, 'date_paid' | 'paid_at' > > ) => o.paid_at ?? o.date_paid;
	const latest = Math.max( 0, ...orders.map( ( o ) => ( paidAt( o ) ? Date.parse( paidAt( o ) as string ) : 0 ) ) );
	const wait = latest + ( SETTLE_SECONDS + 1 ) * 1000 - Date.now();
	if ( wait > 0 ) {
		await sleep( wait );
	}
}

/** Parses a Link header into rel => URL. */
export function links( result: RestResult ): Record< string, string > {
	const header = result.headers.get( 'link' ) ?? '';
	const found: Record< string, string > = {};
	for ( const part of header.split( /,\s*(?=<)/ ) ) {
		const match = /^<([^>]+)>;\s*rel="([^"]+)"/.exec( part.trim() );
		if ( match ) {
			found[ match[ 2 ] as string ] = match[ 1 ] as string;
		}
	}
	return found;
}

/** The REST path (after /wp-json) of a full URL from a Link header. */
export function restPath( url: string ): string {
	const parsed = new URL( url );
	return parsed.pathname.replace( /^\/wp-json/, '' ) + parsed.search;
}

/**
 * A user with a core role (an editor, say) and an application password, made by the
 * administrator over REST the way a site owner would.
 */
export async function userWithRole( role: string ): Promise< RestClient > {
	const admin = adminClient();
	const suffix = Math.random().toString( 36 ).slice( 2, 8 );
	const created = await admin.post< { id: number } >( '/wp/v2/users', {
		username: `e2e-${ role }-${ suffix }`,
		email: `e2e-${ role }-${ suffix }@example.com`,
		password: `pw-${ suffix }-${ Date.now() }`,
		roles: [ role ],
	} );
	if ( created.status !== 201 ) {
		throw new Error( `Could not create a ${ role }: HTTP ${ created.status } ${ JSON.stringify( created.body ) }` );
	}
	const password = await admin.post< { password: string } >(
		`/wp/v2/users/${ created.body.id }/application-passwords`,
		{ name: 'e2e' }
	);
	if ( password.status !== 201 ) {
		throw new Error(
			`Could not create an application password: HTTP ${ password.status } ${ JSON.stringify( password.body ) }`
		);
	}
	return new RestClient( readState().siteUrl, {
		username: `e2e-${ role }-${ suffix }`,
		password: password.body.password,
	} );
}
