import type { Resource } from '../hooks/use-resource';
import { ErrorNotice } from './ErrorNotice';
import { LoadingState } from './LoadingState';

interface Props {
	resource: Pick< Resource< unknown >, 'data' | 'error' | 'loading' | 'reload' >;
	/** Shown while the first answer is awaited, e.g. "Loading the endpoints…". */
	loadingLabel: string;
	/** What failed, e.g. "Loading the endpoints". */
	errorContext: string;
	/** What "Retry" does; reloads the resource by default. */
	onRetry?: () => void;
}

/** A resource's first load and its failure: a spinner, or the error with a way to try again. */
export function ResourceState( { resource, loadingLabel, errorContext, onRetry }: Props ) {
	return (
		<>
			{ resource.loading && resource.data === undefined ? <LoadingState label={ loadingLabel } /> : null }
			{ resource.error ? (
				<ErrorNotice error={ resource.error } context={ errorContext } onRetry={ onRetry ?? resource.reload } />
			) : null }
		</>
	);
}
