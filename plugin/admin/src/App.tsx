import { TabPanel } from '@wordpress/components';
import { __ } from '@wordpress/i18n';
import { DeliveriesSection } from './sections/DeliveriesSection';
import { EndpointsSection } from './sections/EndpointsSection';
import { InboundSection } from './sections/InboundSection';
import { LeastPrivilegeSection } from './sections/LeastPrivilegeSection';
import { OutboxSection } from './sections/OutboxSection';
import { ServiceAccountSection } from './sections/ServiceAccountSection';
import { SidecarStatusSection } from './sections/SidecarStatusSection';

const TABS = [ 'account', 'check', 'sidecar', 'endpoints', 'deliveries', 'inbound' ] as const;
type TabName = ( typeof TABS )[ number ];

function tabTitle( name: TabName ): string {
	switch ( name ) {
		case 'account':
			return __( 'Service account', 'service-integration' );
		case 'check':
			return __( 'Least-privilege check', 'service-integration' );
		case 'sidecar':
			return __( 'Sidecar', 'service-integration' );
		case 'endpoints':
			return __( 'Outbound endpoints', 'service-integration' );
		case 'deliveries':
			return __( 'Deliveries', 'service-integration' );
		case 'inbound':
			return __( 'Inbound', 'service-integration' );
	}
}

function renderTab( name: string ) {
	switch ( name ) {
		case 'check':
			return <LeastPrivilegeSection />;
		case 'sidecar':
			return (
				<>
					<SidecarStatusSection />
					<OutboxSection />
				</>
			);
		case 'endpoints':
			return <EndpointsSection />;
		case 'deliveries':
			return <DeliveriesSection />;
		case 'inbound':
			return <InboundSection />;
		default:
			return <ServiceAccountSection />;
	}
}

/** The tab in the address (`&tab=deliveries`), so a screen can be linked to and reloaded. */
function initialTab(): TabName {
	const wanted = new URLSearchParams( window.location.search ).get( 'tab' );
	return ( TABS as readonly string[] ).includes( wanted ?? '' ) ? ( wanted as TabName ) : 'account';
}

function rememberTab( name: string ): void {
	const url = new URL( window.location.href );
	if ( url.searchParams.get( 'tab' ) !== name ) {
		url.searchParams.set( 'tab', name );
		window.history.replaceState( window.history.state, '', url.toString() );
	}
}

export function App() {
	return (
		<div className="si-app">
			<TabPanel
				className="si-tabs"
				initialTabName={ initialTab() }
				onSelect={ rememberTab }
				tabs={ TABS.map( ( name ) => ( {
					name,
					title: tabTitle( name ),
					className: `si-tab si-tab--${ name }`,
				} ) ) }
			>
				{ ( tab: { name: string } ) => <div className="si-tab-content">{ renderTab( tab.name ) }</div> }
			</TabPanel>
		</div>
	);
}
