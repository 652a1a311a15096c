import {
	BUILDS_DIR,
	hasBuild,
	WOOCOMMERCE_BUILDS,
	woocommerceArchive,
	woocommerceBuild,
	WORDPRESS_BUILD,
	wordpressArchive,
	wordpressBuild,
	type WooCommerceBuild,
} from './builds';

/**
 * What a local site runs (npm start, the e2e suite on either runtime, the benchmarks), chosen
 * from the environment in one place:
 *
 * | variable | values | default |
 * |---|---|---|
 * | `WORDPRESS_DIR` | a WordPress core tree | (unset: `WORDPRESS_VERSION` decides) |
 * | `WORDPRESS_VERSION` | `7.1` (the build in ../shared/builds), `6.5` (6.5.5 from the npm registry) | 7.1 when its build is there, else 6.5 |
 * | `WOOCOMMERCE_DIR` | a WooCommerce plugin folder | (unset: `WOOCOMMERCE_VERSION` decides) |
 * | `WOOCOMMERCE_VERSION` | `10.0.2`, `9.4.3` (builds in ../shared/builds), `none` (no shop) | 10.0.2 (9.4.3 on WordPress 6.5) when the build is there, else none |
 * | `WOOCOMMERCE_HPOS` | `on` (HPOS tables), `off` (legacy posts) | on |
 */
export interface SiteChoice {
	/** A WordPress core tree to copy and run; undefined: 6.5.5 from the npm registry (wordpress-core.ts). */
	wordpressDir?: string;
	/** The WordPress version asked for, for messages ('7.1', '6.5', or 'WORDPRESS_DIR'). */
	wordpress: string;
	/** A WooCommerce plugin folder to put in the site; undefined: a site without a shop. */
	woocommerceDir?: string;
	orderStorage: OrderStorage;
	/** Said once at start when the site has no shop: how to add one. */
	note?: string;
}

const WORDPRESS_VERSIONS = [ WORDPRESS_BUILD, '6.5' ];
/** WooCommerce 10 requires WordPress 6.7+; on 6.5 the oldest supported build runs. */
const WOOCOMMERCE_FOR_WORDPRESS_6_5: WooCommerceBuild = '9.4.3';

export type OrderStorage = 'hpos' | 'legacy';

/** Reads WOOCOMMERCE_HPOS (on/off, yes/no, true/false, 1/0, hpos/legacy); unset means HPOS. */
export function orderStorageFromEnv( value = process.env.WOOCOMMERCE_HPOS ): OrderStorage {
	const wanted = ( value ?? '' ).trim().toLowerCase();
	if ( [ '', 'on', 'yes', 'true', '1', 'hpos' ].includes( wanted ) ) {
		return 'hpos';
	}
	if ( [ 'off', 'no', 'false', '0', 'legacy', 'posts' ].includes( wanted ) ) {
		return 'legacy';
	}
	throw new Error( `WOOCOMMERCE_HPOS must be on (HPOS, the default) or off (legacy post storage), got "${ value }"` );
}

export function chooseSite( env: NodeJS.ProcessEnv = process.env ): SiteChoice {
	const orderStorage = orderStorageFromEnv( env.WOOCOMMERCE_HPOS );
	const wordpress = chooseWordPress( env );
	const woocommerce = chooseWooCommerce( env, wordpress.wordpress );
	return { ...wordpress, ...woocommerce, orderStorage };
}

function chooseWordPress( env: NodeJS.ProcessEnv ): Pick< SiteChoice, 'wordpressDir' | 'wordpress' > {
	if ( env.WORDPRESS_DIR ) {
		return { wordpressDir: env.WORDPRESS_DIR, wordpress: 'WORDPRESS_DIR' };
	}
	const wanted = ( env.WORDPRESS_VERSION ?? '' ).trim().replace( /^6\.5\.5$/, '6.5' );
	if ( wanted !== '' && ! WORDPRESS_VERSIONS.includes( wanted ) ) {
		throw new Error(
			`WORDPRESS_VERSION must be ${ WORDPRESS_VERSIONS.join( ' or ' ) } (or set WORDPRESS_DIR to a core tree), got "${ env.WORDPRESS_VERSION }"`
		);
	}
	const version = wanted || ( hasBuild( wordpressArchive() ) ? WORDPRESS_BUILD : '6.5' );
	return version === WORDPRESS_BUILD
		? { wordpressDir: wordpressBuild(), wordpress: version }
		: { wordpressDir: undefined, wordpress: version };
}

function chooseWooCommerce( env: NodeJS.ProcessEnv, wordpress: string ): Pick< SiteChoice, 'woocommerceDir' | 'note' > {
	if ( env.WOOCOMMERCE_DIR ) {
		return { woocommerceDir: env.WOOCOMMERCE_DIR };
	}
	const wanted = ( env.WOOCOMMERCE_VERSION ?? '' ).trim();
	const allowed: string[] = [ ...WOOCOMMERCE_BUILDS, 'none' ];
	if ( wanted !== '' && ! allowed.includes( wanted ) ) {
		throw new Error(
			`WOOCOMMERCE_VERSION must be ${ allowed.join( ', ' ) } (or set WOOCOMMERCE_DIR to a WooCommerce folder), got "${ env.WOOCOMMERCE_VERSION }"`
		);
	}
	if ( wanted === 'none' ) {
		return {};
	}
	const version = ( wanted ||
		( wordpress === '6.5' ? WOOCOMMERCE_FOR_WORDPRESS_6_5 : WOOCOMMERCE_BUILDS[ 0 ] ) ) as WooCommerceBuild;
	if ( ! wanted && ! hasBuild( woocommerceArchive( version ) ) ) {
		return {
			note: `No WooCommerce build in ${ BUILDS_DIR }: this site has no shop. Builds are looked for in ../shared/builds beside this checkout; point SERVICE_INTEGRATION_BUILDS_DIR at the folder that has them, or add a shop with WOOCOMMERCE_DIR=<a woocommerce plugin folder>.`,
		};
	}
	return { woocommerceDir: woocommerceBuild( version ) };
}

/** The lines every command that starts a site prints in its --help, from the table above. */
export const SITE_CHOICE_HELP = `  WORDPRESS_VERSION  ${ WORDPRESS_BUILD } (default when ../shared/builds has it) or 6.5 (6.5.5 from the npm registry)
  WORDPRESS_DIR      another WordPress core tree instead (copied; never written to)
  WOOCOMMERCE_VERSION
                     ${ WOOCOMMERCE_BUILDS.join( ' or ' ) } from ../shared/builds (default ${ WOOCOMMERCE_BUILDS[ 0 ] }, or ${ WOOCOMMERCE_FOR_WORDPRESS_6_5 } on
                     WordPress 6.5), or none for a site without a shop (the default when no
                     build is there)
  WOOCOMMERCE_DIR    another WooCommerce plugin folder instead (mounted read-only)
  WOOCOMMERCE_HPOS   on (default: HPOS, custom order tables) or off (legacy post storage)
  SERVICE_INTEGRATION_BUILDS_DIR
                     where the builds are (default: ../shared/builds beside this checkout)
`;
