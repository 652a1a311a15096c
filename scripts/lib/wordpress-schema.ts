/**
 * zod's JSON Schema as WordPress's REST schemas take it, for both the proxy routes' arguments
 * (sidecar-contract.ts) and their response schemas (sidecar-responses.ts): one rule for each.
 */
export type JsonSchema = Record< string, unknown >;

/**
 * `anyOf [X, null]` as WordPress writes it: X with `type: [X, 'null']`, and null among X's enum
 * values (an enum applies to every type). Any other schema is returned as it is.
 */
export function nullableAsTypeList( schema: JsonSchema ): JsonSchema {
	const anyOf = schema.anyOf as JsonSchema[] | undefined;
	if ( ! anyOf || anyOf.length !== 2 || ! anyOf.some( ( option ) => option.type === 'null' ) ) {
		return schema;
	}
	const value = anyOf.find( ( option ) => option.type !== 'null' ) as JsonSchema;
	const { anyOf: _anyOf, ...rest } = schema;
	return {
		...value,
		...rest,
		type: [ value.type, 'null' ],
		...( Array.isArray( value.enum ) ? { enum: [ ...value.enum, null ] } : {} ),
	};
}

/**
 * Whether a key of a schema tells WordPress something: not zod's long pattern for a date-time
 * (WordPress checks the format itself, with rest_parse_date), nor zod's bounds of a safe integer.
 */
export function tellsWordPress( schema: JsonSchema, key: string ): boolean {
	const value = schema[ key ];
	if ( value === undefined ) {
		return false;
	}
	if ( key === 'pattern' && schema.format === 'date-time' ) {
		return false;
	}
	return ! ( ( key === 'minimum' || key === 'maximum' ) && Math.abs( value as number ) === Number.MAX_SAFE_INTEGER );
}
