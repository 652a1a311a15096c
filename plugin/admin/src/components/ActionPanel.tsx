import { Notice } from '@wordpress/components';
import type { Action } from '../hooks/use-action';
import { ErrorNotice } from './ErrorNotice';
import { RefreshButton } from './RefreshButton';
import { Section } from './Section';

interface Props {
	title: string;
	description: string;
	/** The Refresh button, while what it reloads can be shown (none when the route is missing). */
	refresh?: { onRefresh: () => void; busy: boolean } | null;
	/** Buttons after Refresh (add, hand over). */
	actions?: React.ReactNode;
	/** What the last change did, until dismissed. */
	message: string | null;
	onDismissMessage: () => void;
	/** The panel's changes: their error shows above the content. */
	action: Action;
	/** What a failed change was doing, e.g. "Handing the events over". */
	actionErrorContext?: string;
	children: React.ReactNode;
}

/**
 * A section that shows something and changes it: Refresh and its own buttons in the header,
 * then what the last change did (or why it failed), then the content.
 */
export function ActionPanel( {
	title,
	description,
	refresh,
	actions,
	message,
	onDismissMessage,
	action,
	actionErrorContext,
	children,
}: Props ) {
	return (
		<Section
			title={ title }
			description={ description }
			actions={
				refresh || actions ? (
					<>
						{ refresh ? <RefreshButton onRefresh={ refresh.onRefresh } busy={ refresh.busy } /> : null }
						{ actions }
					</>
				) : null
			}
		>
			{ message ? (
				<Notice status="success" onRemove={ onDismissMessage } className="si-notice">
					{ message }
				</Notice>
			) : null }
			{ action.error ? (
				<ErrorNotice error={ action.error } context={ actionErrorContext } onDismiss={ action.clearError } />
			) : null }
			{ children }
		</Section>
	);
}
