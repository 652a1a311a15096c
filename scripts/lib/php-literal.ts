/** A value as a PHP literal, for the wp-config.php files the native and production runtimes write. */
export function phpLiteral( value: unknown ): string {
	if ( typeof value === 'boolean' ) {
		return value ? 'true' : 'false';
	}
	if ( typeof value === 'number' && Number.isFinite( value ) ) {
		return String( value );
	}
	return `'${ String( value ).replaceAll( '\\', '\\\\' ).replaceAll( "'", "\\'" ) }'`;
}
