import { Fragment } from '@wordpress/element';
import { breakSegments } from './break-points';

/**
 * Text that wraps only at its natural break points: a <wbr> after each run of
 * / . _ - ? & = (breakSegments). Copying it copies the text unchanged.
 */
export function WithBreaks( { text }: { text: string } ) {
	const segments = breakSegments( text );
	return (
		<>
			{ segments.map( ( segment, index ) => (
				<Fragment key={ index }>
					{ segment }
					{ index < segments.length - 1 ? <wbr /> : null }
				</Fragment>
			) ) }
		</>
	);
}

/** A code, id or URL (see WithBreaks). */
export function Code( { children, className }: { children: string; className?: string } ) {
	return (
		<code className={ className }>
			<WithBreaks text={ children } />
		</code>
	);
}

/** A secret as the sidecar masks every secret (`whsec_…wxyz`, sidecar/src/secret-mask.ts), shown the same way everywhere. */
export function SecretMask( { masked }: { masked: string } ) {
	return <code className="si-secret-mask">{ masked }</code>;
}
