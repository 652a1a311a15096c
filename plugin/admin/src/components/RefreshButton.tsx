import { Button } from '@wordpress/components';
import { __ } from '@wordpress/i18n';

interface Props {
	onRefresh: () => void;
	busy: boolean;
}

/** A section header's Refresh: busy and disabled while what it reloads is loading. */
export function RefreshButton( { onRefresh, busy }: Props ) {
	return (
		<Button variant="secondary" size="compact" onClick={ onRefresh } isBusy={ busy } disabled={ busy }>
			{ __( 'Refresh', 'service-integration' ) }
		</Button>
	);
}
