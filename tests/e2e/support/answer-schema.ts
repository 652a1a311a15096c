import Ajv from 'ajv';
import { adminClient } from './clients';

/**
 * Checks a real answer against the schema its own route publishes on OPTIONS (what an API client
 * reads): every declared field of the right type, the `required` ones present.
 */
const ajv = new Ajv( {
	allErrors: true,
	strict: false,
	// The formats these schemas use, as WordPress means them (rest_parse_date, a URL, is_email's shape).
	formats: {
		'date-time': ( value: string ) =>
			/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test( value ) &&
			! isNaN( Date.parse( value ) ),
		uri: ( value: string ) => URL.canParse( value ),
		email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
	},
} );

/** The schema OPTIONS gives for a route, without its draft-04 `$schema` (Ajv speaks draft 7, the same for these keywords). */
export async function routeSchema( path: string ): Promise< Record< string, unknown > > {
	const options = await adminClient().request< { schema?: Record< string, unknown > } >( {
		method: 'OPTIONS',
		path,
	} );
	if ( options.status !== 200 || ! options.body.schema ) {
		throw new Error(
			`OPTIONS ${ path } gave no schema: HTTP ${ options.status } ${ options.text.slice( 0, 300 ) }`
		);
	}
	const { $schema: _draft, ...schema } = options.body.schema;
	return schema;
}

/** The ways `answer` departs from the schema of the route at `path` (none: an empty list). */
export async function schemaErrors( path: string, answer: unknown ): Promise< string[] > {
	const validate = ajv.compile( await routeSchema( path ) );
	validate( answer );
	return ( validate.errors ?? [] ).map( ( error ) => `${ path }${ error.instancePath } ${ error.message }` );
}
