import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { closeAlert, useAlert } from './alert-store';

/** The global, closable error bar; fed by the API client and by anything that calls showAlert. */
export function AlertBar() {
  const alert = useAlert();
  if (!alert) return null;
  return (
    <Alert
      key={alert.id}
      role="alert"
      data-testid="alert-bar"
      variant="light"
      color="red"
      radius="md"
      title={alert.title}
      icon={<IconAlertCircle size={20} />}
      withCloseButton
      closeButtonLabel="Close alert"
      onClose={closeAlert}
      mb="md"
    >
      {alert.message}
    </Alert>
  );
}
