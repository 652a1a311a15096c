import { __, _x } from '@wordpress/i18n';
import type { ServiceAccountState } from '../../api/service-account';
import { Code } from '../../components/Code';
import { DataTable } from '../../components/DataTable';
import { StatusBadge } from '../../components/StatusBadge';
import { capabilityRows, type CapabilityVerdict } from './capability-rows';

function grantedLabel( granted: boolean | null ): string {
	if ( granted === null ) {
		return __( 'not set', 'service-integration' );
	}
	return granted ? __( 'granted', 'service-integration' ) : __( 'denied', 'service-integration' );
}

function VerdictBadge( { verdict }: { verdict: CapabilityVerdict } ) {
	switch ( verdict ) {
		case 'widened':
			return <StatusBadge tone="error">{ __( 'Widening (refused)', 'service-integration' ) }</StatusBadge>;
		case 'missing':
			return (
				<StatusBadge tone="warning">{ _x( 'Missing', 'capability state', 'service-integration' ) }</StatusBadge>
			);
		case 'removed':
			return (
				<StatusBadge tone="warning">{ _x( 'Removed', 'capability state', 'service-integration' ) }</StatusBadge>
			);
		default:
			return <StatusBadge tone="success">{ __( 'As expected', 'service-integration' ) }</StatusBadge>;
	}
}

/** What the integration role holds against the list it is built from, a refused widening flagged. */
export function CapabilityTable( { state }: { state: ServiceAccountState } ) {
	return (
		<div className="si-subsection">
			<h3>{ __( 'Role capabilities', 'service-integration' ) }</h3>
			<p className="si-help">
				{ __(
					'What the integration role (service_integration) holds, against the list it is built from. Anything beyond that list is refused at run time and flagged here.',
					'service-integration'
				) }
			</p>
			<DataTable
				caption={ __(
					'Capabilities of the integration role against the expected list',
					'service-integration'
				) }
				className="si-capabilities"
				columns={ [
					{
						label: __( 'Capability', 'service-integration' ),
						rowHeader: true,
						render: ( row ) => <Code>{ row.name }</Code>,
					},
					{
						label: __( 'Expected', 'service-integration' ),
						render: ( row ) =>
							grantedLabel( row.name in state.expected_capabilities ? row.expected : null ),
					},
					{
						label: __( 'On the role', 'service-integration' ),
						render: ( row ) => grantedLabel( row.onRole ),
					},
					{
						label: __( 'State', 'service-integration' ),
						render: ( row ) => <VerdictBadge verdict={ row.verdict } />,
					},
				] }
				rows={ capabilityRows( state ) }
				rowKey={ ( row ) => row.name }
				rowAttributes={ ( row ) => ( {
					className: row.verdict === 'widened' ? 'si-row--flagged' : undefined,
				} ) }
			/>
		</div>
	);
}
