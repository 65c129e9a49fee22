import { ActionIcon, Button, Divider, Group, Loader, SimpleGrid, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCheck, IconTrash, IconWand } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { clusterFormErrors, CREATION_TEXTS, FIELD_RULES, type ClusterFormValues, type StoreLookup } from '@bo/shared/creation';
import { canCreate } from '@bo/shared/permissions';
import { flash } from '@/components/ui/flash';
import { PagedSelect } from '@/components/ui/paged-select';
import { ApiError } from '@/lib/api-error';
import { NO_GRANTS, useSession } from '@/lib/session';
import { clusterUrl } from '@/lib/editor-urls';
import { checkClusterExists } from '../api/check-cluster-exists';
import { createCluster } from '../api/create-cluster';
import { getGenericClusterName } from '../api/get-generic-cluster-name';
import { useInitialFilters } from '../api/get-initial-filters';
import { useLias } from '../api/get-lias';
import { useStoreBySap } from '../api/get-store-by-sap';
import { HOME_RESULTS_KEY } from '../api/home-results';
import { useLegoStatus } from '../hooks/use-lego-status';
import { countedFields, CountedTextarea, CountedTextInput, CreationModal, failureLines, useCreationSubmit } from './creation-modal';

export interface ClusterDefaults {
  brand?: string | null;
  collection?: string | null;
  starZones?: string[];
}

type FormState = Omit<ClusterFormValues, 'storeCount'>;
const EMPTY: FormState = { collection: null, brandCode: null, lias: [], clusterId: '', clusterLabel: '', clusterDescription: '', starZones: [] };

/** The store part of the form: a SAP code, looked up as it is typed; Add needs a finished lookup. */
function StorePicker({ stores, onAdd }: { stores: readonly StoreLookup[]; onAdd: (store: StoreLookup) => void }) {
  const [sap, setSap] = useState('');
  const [debounced] = useDebouncedValue(sap.trim(), 400);
  const lookup = useStoreBySap(debounced);
  const finished = debounced === sap.trim() && debounced.length > 0 && !lookup.isFetching;
  const store = finished && lookup.isSuccess ? lookup.data : null;
  const already = !!store && stores.some((s) => s.storeJda === store.storeJda);
  const lookupError = finished && lookup.isError ? (lookup.error instanceof ApiError ? lookup.error.message : 'The SAP code lookup failed') : null;

  return (
    <Stack gap={6}>
      <SimpleGrid cols={4} spacing="xs">
        <TextInput
          label="SAP code"
          placeholder="e.g. S1000013"
          value={sap}
          onChange={(e) => setSap(e.currentTarget.value)}
          error={lookupError}
          rightSection={sap && !finished ? <Loader size={14} /> : store ? <IconCheck size={16} color="var(--mantine-color-teal-6)" /> : null}
          data-testid="store-sap"
        />
        <TextInput label="Store" value={store ? `${store.name} (${store.storeJda})` : ''} readOnly placeholder="—" />
        <TextInput label="Stars customer" value={store?.starsCustomer ?? ''} readOnly placeholder="—" />
        <TextInput label="Segment" value={store?.customerSegmentation ?? ''} readOnly placeholder="—" />
      </SimpleGrid>
      <Group justify="flex-end">
        <Button
          size="xs"
          variant="light"
          disabled={!store || already}
          onClick={() => {
            if (!store) return;
            onAdd(store);
            setSap('');
          }}
          data-testid="add-store"
        >
          {already ? 'Already in the list' : 'Add store'}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * Create cluster (part 2 §2 "Cluster creation", §5): collection, brand, LIAs (at least one), cluster id
 * (≤ 20, no spaces or special characters; 'Generate' proposes a free one), label (≤ 40), description,
 * Stars zones and a store list. Creating stores it as a new cluster and goes to /cluster.
 */
export function CreateClusterModal({ opened, onClose, monthId, defaults }: { opened: boolean; onClose: () => void; monthId: string; defaults: ClusterDefaults }) {
  const grants = useSession((s) => s.grants) ?? NO_GRANTS;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const initial = useInitialFilters();
  const lias = useLias(opened);
  const [values, setValues] = useState<FormState>(EMPTY);
  const [stores, setStores] = useState<StoreLookup[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const { busy, serverError, setServerError, run } = useCreationSubmit();
  const [naming, setNaming] = useState(false);

  useEffect(() => {
    if (!opened) return;
    setValues({ ...EMPTY, brandCode: defaults.brand ?? null, collection: defaults.collection ?? null, starZones: defaults.starZones ?? [] });
    setStores([]);
    setSubmitted(false);
    setServerError(null);
    // The form is reset when the popup opens; `defaults` is a new object on each render of the opener.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset on open only, not when the opener re-renders
  }, [opened]);

  const set = <K extends keyof FormState>(field: K, value: FormState[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setServerError(null);
  };
  const errors = clusterFormErrors({ ...values, storeCount: stores.length });
  const show = (field: keyof ClusterFormValues) => (submitted ? errors[field] : undefined);
  const brandOptions = useMemo(() => (initial.data?.brand ?? []).filter((b) => canCreate(grants, { brand: b.value })), [initial.data, grants]);
  const liaOptions = (lias.data ?? []).map((l) => ({ value: l.liaCode, label: `${l.liaCode} · ${l.planningChannelId}` }));
  const lego = useLegoStatus(opened ? monthId : null, values.brandCode, values.collection);
  const counted = countedFields<'clusterId' | 'clusterLabel' | 'clusterDescription'>({ values, errors, show, set });

  const generate = async () => {
    if (!values.brandCode || !values.collection) {
      setSubmitted(true);
      return;
    }
    setNaming(true);
    try {
      const channel = lias.data?.find((l) => l.liaCode === [...values.lias].sort()[0])?.planningChannelId ?? null;
      const { clusterId } = await getGenericClusterName({
        planningChannel: channel,
        collection: values.collection,
        brand: values.brandCode,
        country: [...new Set(stores.map((s) => s.countryCode))],
      });
      set('clusterId', clusterId);
    } catch (e) {
      setServerError(failureLines(e, 'Unable to generate a name'));
    } finally {
      setNaming(false);
    }
  };

  const submit = async () => {
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    const key = { clusterId: values.clusterId, clusterLabel: values.clusterLabel, clusterDescription: values.clusterDescription, monthId };
    await run(async () => {
      await checkClusterExists(key);
      const [created] = await createCluster({
        ...key,
        brandCode: values.brandCode!,
        collection: values.collection!,
        lias: values.lias,
        starZones: values.starZones,
        stores: stores.map((s) => ({ codiceStoreSap: s.codiceStoreSap, storeId: s.storeJda, starsCustomer: s.starsCustomer, customerSegmentation: [s.customerSegmentation] })),
      });
      await queryClient.invalidateQueries({ queryKey: HOME_RESULTS_KEY });
      flash(`The cluster ${created!.clusterId} has been created`);
      onClose();
      navigate(clusterUrl(created!));
    }, CREATION_TEXTS.clusterExists);
  };

  return (
    <CreationModal
      opened={opened}
      onClose={onClose}
      busy={busy}
      title="Create cluster"
      monthId={monthId}
      lego={lego}
      size="xl"
      testId="create-cluster-modal"
      onSubmit={() => void submit()}
      errorTitle="Unable to create the cluster"
      serverError={serverError}
      submitLabel="Create cluster"
      submitTestId="submit-cluster"
    >
      <SimpleGrid cols={3} spacing="sm">
        <PagedSelect label="Collection" required placeholder="Choose a collection" data={initial.data?.collection ?? []} value={values.collection} onChange={(v) => set('collection', v)} error={show('collection')} />
        <PagedSelect label="Brand" required placeholder="Choose a brand" data={brandOptions} value={values.brandCode} onChange={(v) => set('brandCode', v)} error={show('brandCode')} />
        <PagedSelect multiple label="LIA" required placeholder="Choose LIAs" data={liaOptions} value={values.lias} onChange={(v) => set('lias', v)} error={show('lias')} maxPills={2} data-testid="cluster-lias" />
        <CountedTextInput
          label="Cluster id"
          required
          {...counted('clusterId', FIELD_RULES.clusterId)}
          rightSection={
            <Tooltip label="Generate a free cluster id" withArrow>
              <ActionIcon variant="subtle" onClick={generate} loading={naming} aria-label="Generate a cluster id">
                <IconWand size={16} />
              </ActionIcon>
            </Tooltip>
          }
          data-testid="cluster-id"
        />
        <CountedTextInput label="Cluster label" required {...counted('clusterLabel', FIELD_RULES.clusterLabel)} data-testid="cluster-label" />
        <PagedSelect multiple label="Stars zones" required placeholder="Choose zones" data={initial.data?.starsZone ?? []} value={values.starZones} onChange={(v) => set('starZones', v)} error={show('starZones')} />
      </SimpleGrid>
      <CountedTextarea label="Description" placeholder="Cluster Description" {...counted('clusterDescription', FIELD_RULES.description, true)} />
      <Divider label="Stores" labelPosition="left" />
      <StorePicker stores={stores} onAdd={(s) => setStores((list) => [...list, s])} />
      {stores.length > 0 ? (
        <Table striped verticalSpacing={4} fz="sm" data-testid="cluster-stores">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Segment</Table.Th>
              <Table.Th>Stars customer</Table.Th>
              <Table.Th>Store</Table.Th>
              <Table.Th>SAP code</Table.Th>
              <Table.Th w={40} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {stores.map((s) => (
              <Table.Tr key={s.storeJda}>
                <Table.Td>{s.customerSegmentation}</Table.Td>
                <Table.Td>{s.starsCustomer}</Table.Td>
                <Table.Td>
                  {s.name} <Text span c="dimmed" fz="xs">({s.storeJda} · {s.countryCode})</Text>
                </Table.Td>
                <Table.Td ff="monospace">{s.codiceStoreSap}</Table.Td>
                <Table.Td>
                  <ActionIcon variant="subtle" color="red" size="sm" aria-label={`Remove ${s.codiceStoreSap}`} onClick={() => setStores((list) => list.filter((x) => x !== s))}>
                    <IconTrash size={14} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text fz="sm" c={show('storeCount') ? 'red' : 'dimmed'}>
          {show('storeCount') ?? 'No stores yet: type a SAP code and add the store.'}
        </Text>
      )}
    </CreationModal>
  );
}
