import { Button, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { EMAIL_MAX_LENGTH, isValidEmail } from '@bo/shared/users';
import { IconAt, IconUserPlus } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { flash } from '@/components/ui/flash';
import { createUserOutcome, useCreateUser } from '../api/create-user';
import { useCountries } from '../api/get-countries';

/**
 * 'Add new' (part 1 §2, §5, §7): an e-mail, lowercased, that must match a standard e-mail pattern
 * before Add is enabled, and an optional country. The outcome shows as a flash message.
 */
export function AddUserForm() {
  const [email, setEmail] = useState('');
  const [country, setCountry] = useState<string | null>(null);
  const countries = useCountries();
  const create = useCreateUser();
  const valid = isValidEmail(email);
  const showInvalid = email.trim() !== '' && !valid;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || create.isPending) return;
    create.mutate(
      { email: email.trim().toLowerCase(), country },
      {
        onSuccess: () => {
          flash(createUserOutcome({ ok: true }).message, 'success');
          setEmail('');
          setCountry(null);
        },
        onError: (error) => {
          const outcome = createUserOutcome({ ok: false, error });
          flash(outcome.message, outcome.kind);
        },
      },
    );
  };

  return (
    <Paper withBorder radius="lg" p="lg" shadow="xs" component="section" aria-label="Add new user">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <div>
            <Text fw={600}>Add new</Text>
            <Text fz="sm" c="dimmed">
              Users are created from the identity provider's list of e-mails, then enabled and given a role and grants.
            </Text>
          </div>
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              label="E-mail"
              placeholder="name@company.com"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value.toLowerCase())}
              maxLength={EMAIL_MAX_LENGTH}
              leftSection={<IconAt size={16} stroke={1.6} />}
              error={showInvalid ? 'Enter a valid e-mail address' : undefined}
              w={340}
              autoComplete="off"
              data-testid="new-user-email"
            />
            <Select
              label="Country"
              placeholder="Optional"
              data={(countries.data ?? []).map((c) => ({ value: c.countryCode, label: `${c.name} (${c.countryCode})` }))}
              value={country}
              onChange={setCountry}
              searchable
              clearable
              nothingFoundMessage="No country found"
              w={240}
              data-testid="new-user-country"
            />
            <DisabledReason reason={!valid && !create.isPending && 'Type a valid e-mail address first'}>
              <Button type="submit" mt={25} leftSection={<IconUserPlus size={16} />} loading={create.isPending}>
                Add
              </Button>
            </DisabledReason>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
