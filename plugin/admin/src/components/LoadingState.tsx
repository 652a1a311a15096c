import { Spinner } from '@wordpress/components';

/** A spinner with a visible, announced label. */
export function LoadingState( { label }: { label: string } ) {
	return (
		<div className="si-loading" role="status" aria-live="polite">
			<Spinner />
			<span>{ label }</span>
		</div>
	);
}
