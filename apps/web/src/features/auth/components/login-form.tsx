import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { IconAlertCircle, IconLock, IconUser } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { loginErrorMessage, useLogin } from '../api/login';

/**
 * Username and password; Login is enabled only when both are filled (spec part 1 §2), Enter
 * submits. On success the session starts and the login route moves on to home.
 */
export function LoginForm() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useLogin();
  const canSubmit = username.trim() !== '' && password !== '';

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!canSubmit || login.isPending) return;
    login.mutate({ username: username.trim(), password });
  };

  // A new attempt starts clean: the previous error goes away as soon as the user edits a field.
  const edit = (setter: (value: string) => void) => (event: { currentTarget: HTMLInputElement }) => {
    setter(event.currentTarget.value);
    if (login.isError) login.reset();
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Login">
      <Stack gap="md">
        {login.isError && (
          <Alert
            role="alert"
            data-testid="login-error"
            variant="light"
            color="red"
            radius="md"
            icon={<IconAlertCircle size={18} />}
          >
            {loginErrorMessage(login.error)}
          </Alert>
        )}
        <TextInput
          label="Username"
          name="username"
          placeholder="Username or e-mail"
          autoComplete="username"
          leftSection={<IconUser size={16} stroke={1.6} />}
          value={username}
          onChange={edit(setUsername)}
          disabled={login.isPending}
          autoFocus
          size="md"
        />
        <PasswordInput
          label="Password"
          name="password"
          placeholder="Your password"
          autoComplete="current-password"
          leftSection={<IconLock size={16} stroke={1.6} />}
          value={password}
          onChange={edit(setPassword)}
          disabled={login.isPending}
          size="md"
        />
        <Button type="submit" size="md" fullWidth mt="xs" disabled={!canSubmit} loading={login.isPending}>
          Login
        </Button>
      </Stack>
    </form>
  );
}
