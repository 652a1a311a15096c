/**
 * The proxy routes' response schemas, made from the sidecar's answer schemas
 * (sidecar/src/contracts/responses.ts, views.ts) through zod's draft-04 JSON Schema, reduced to
 * what WordPress's REST schemas know and described the way core's controllers describe theirs:
 * every property with a description, `context` view and edit, and `readonly`.
 */
import { z } from 'zod';
import * as RESPONSE_VIEWS from '../../sidecar/src/contracts/responses';
import { PROXIED_RESPONSES } from '../../sidecar/src/contracts/responses';
import * as VIEWS from '../../sidecar/src/contracts/views';
import { nullableAsTypeList, tellsWordPress, type JsonSchema } from './wordpress-schema';

/** The keys of a JSON Schema a response schema keeps (rest_get_allowed_schema_keywords), in core's order. */
const SCHEMA_KEYS = [
	'description',
	'type',
	'format',
	'enum',
	'pattern',
	'minimum',
	'maximum',
	'minLength',
	'maxLength',
	'items',
	'properties',
	'required',
] as const;

/** One schema as WordPress's (see wordpress-schema.ts), its properties described. */
function restSchema( schema: JsonSchema, where: string ): JsonSchema {
	if ( schema.anyOf && nullableAsTypeList( schema ) === schema ) {
		throw new Error( `${ where }: a union other than "X or null" has no WordPress schema.` );
	}
	const source = nullableAsTypeList( schema );
	const out: JsonSchema = {};
	for ( const key of SCHEMA_KEYS ) {
		if ( ! tellsWordPress( source, key ) ) {
			continue;
		}
		const value = source[ key ];
		if ( key === 'items' ) {
			out.items = restSchema( value as JsonSchema, `${ where }[]` );
		} else if ( key === 'properties' ) {
			out.properties = Object.fromEntries(
				Object.entries( value as Record< string, JsonSchema > ).map( ( [ name, property ] ) => [
					name,
					restProperty( property, `${ where }.${ name }` ),
				] )
			);
		} else {
			out[ key ] = value;
		}
	}
	return out;
}

/** A property: described (the generator refuses one without a description), in both contexts, read-only. */
function restProperty( schema: JsonSchema, where: string ): JsonSchema {
	const property = restSchema( schema, where );
	if ( typeof property.description !== 'string' || property.description === '' ) {
		throw new Error( `${ where } has no description: give it one with .describe() in sidecar/src/contracts/.` );
	}
	return { ...property, context: [ 'view', 'edit' ], readonly: true };
}

/**
 * One route's schema: every answer's properties (the first answer that has a name describes it;
 * another answer may not give it a different shape), requiring those every answer requires.
 */
function routeSchema( title: string, answers: readonly z.ZodObject[] ): JsonSchema {
	const properties: Record< string, JsonSchema > = {};
	let required: string[] | undefined;
	for ( const answer of answers ) {
		const json = restSchema( z.toJSONSchema( answer, { io: 'output', target: 'draft-04' } ) as JsonSchema, title );
		for ( const [ name, property ] of Object.entries( json.properties as Record< string, JsonSchema > ) ) {
			const known = properties[ name ];
			const shape = ( schema: JsonSchema ) => JSON.stringify( { ...schema, description: undefined } );
			if ( known && shape( known ) !== shape( property ) ) {
				throw new Error( `${ title }: its answers give ${ name } different shapes.` );
			}
			properties[ name ] = known ?? property;
		}
		const answerRequired = ( json.required as string[] | undefined ) ?? [];
		required = required ? required.filter( ( name ) => answerRequired.includes( name ) ) : answerRequired;
	}
	return {
		title,
		type: 'object',
		properties,
		...( required && required.length > 0 ? { required } : {} ),
	};
}

/**
 * The properties of each object schema views.ts and responses.ts export, as a response schema
 * has them, by the export's name: what the generated contract names its shared parts after.
 */
export function viewProperties(): Record< string, JsonSchema > {
	return Object.fromEntries(
		Object.entries( { ...VIEWS, ...RESPONSE_VIEWS } as Record< string, unknown > )
			.filter( ( entry ): entry is [ string, z.ZodObject ] => entry[ 1 ] instanceof z.ZodObject )
			.map( ( [ name, view ] ) => [
				name,
				restSchema( z.toJSONSchema( view, { io: 'output', target: 'draft-04' } ) as JsonSchema, name )
					.properties as JsonSchema,
			] )
	);
}

/** Each proxied route's response schema, by its title (the keys of PROXIED_RESPONSES). */
export function responseSchemas(): Record< string, JsonSchema > {
	return Object.fromEntries(
		Object.entries( PROXIED_RESPONSES ).map( ( [ title, answers ] ) => [ title, routeSchema( title, answers ) ] )
	);
}
