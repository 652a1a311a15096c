/**
 * The embedded stores are synchronous (better-sqlite3), the store interfaces async (they also sit
 * on a database server). `promised` puts the one behind the other without a forwarding method per
 * call: each name of the result maps to the synchronous method it runs, and the result's type is
 * that method's with its answer wrapped in a promise (a throw becomes a rejection, as a query on
 * the shared store fails).
 */
type Method = ( ...args: never[] ) => unknown;

/** The method names of T. */
type MethodOf< T > = { [ K in keyof T ]: T[ K ] extends Method ? K : never }[ keyof T ];

/** Each name of `Names`, as the method of T it names, answering with a promise. */
export type Promised< T, Names extends Record< string, MethodOf< T > > > = {
	[ Name in keyof Names ]: T[ Names[ Name ] ] extends ( ...args: infer Args ) => infer Answer
		? ( ...args: Args ) => Promise< Answer >
		: never;
};

export function promised< T extends object, const Names extends Record< string, MethodOf< T > > >(
	target: T,
	names: Names
): Promised< T, Names > {
	const wrapped: Record< string, ( ...args: unknown[] ) => Promise< unknown > > = {};
	for ( const [ name, method ] of Object.entries( names ) ) {
		const run = target[ method ] as ( ...args: unknown[] ) => unknown;
		wrapped[ name ] = async ( ...args ) => run.apply( target, args );
	}
	return wrapped as Promised< T, Names >;
}
