import { Alert, Box, Button, Center, Group, Loader, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { IconAlertTriangle, IconEyeglass2, IconMoodEmpty } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ClusterListItem, ModuleListItem } from '@bo/shared/search';
import { canCreate, canCreateAny, canDelete, isAdmin } from '@bo/shared/permissions';
import { flash } from '@/components/ui/flash';
import { useSession } from '@/lib/session';
import { clustersUrl, modulesUrl, moduleUrl, openInNewTab } from '@/lib/editor-urls';
import { formatMonthId } from '@/lib/format';
import { useHomeMonths } from '../api/get-months';
import { useHomeSearch } from '../hooks/use-home-search';
import type { HomeSelection } from '../logic/home-selection';
import { MAX_OPEN_MODULES, storeMassiveEditSelection } from '../logic/open-items';
import { ClusterColumn, clusterKey } from './cluster-column';
import { CreateClusterModal } from './create-cluster-modal';
import { CreateFamilyModal } from './create-family-modal';
import type { ModuleDefaults } from './create-module-modal';
import { DeleteItemsModal, type DeletableItem } from './delete-items-modal';
import { FamilyColumn } from './family-column';
import { ModuleColumn, moduleKey } from './module-column';

// Loaded when first opened: it and its number input are ~14 KB of gzipped JavaScript the home does not need to be
// usable (issue 19 "A light first load": home ≤ 300 KB; docs/performance.md section 4).
const CreateModuleModal = lazy(async () => ({ default: (await import('./create-module-modal')).CreateModuleModal }));

export const WELCOME_TEXT = 'WELCOME TO YOUR ASSORTMENT PERSONALIZATION TOOL BACKOFFICE';
const HOME_TEXTS = {
  noResults: 'No search results',
  tooMany: 'The search returned too many elements',
  changeFilters: 'Change the filters and search again',
  failed: 'The search failed. Try again.',
  tooManyToOpen: `At most ${MAX_OPEN_MODULES} modules can be opened at once: choose fewer.`,
} as const;
/** Above this many items the loader says the search is big. */
const BIG_SEARCH = 1000;

const single = (values: readonly string[]) => (values.length === 1 ? values[0]! : null);

function Welcome() {
  return (
    <Stack align="center" justify="center" gap="lg" mih="60vh" ta="center">
      <ThemeIcon size={88} radius={44} variant="light">
        <IconEyeglass2 size={48} stroke={1.4} />
      </ThemeIcon>
      <Title order={2} fz={26} fw={700} lts={1.2} maw={640} c="brand.9" data-testid="welcome">
        {WELCOME_TEXT}
      </Title>
      <Text c="dimmed" maw={520}>
        Choose a month and refine your search to browse macro families, modules and clusters.
      </Text>
    </Stack>
  );
}

function Message({ icon, title, text, color = 'gray', testId }: { icon: React.ReactNode; title: string; text?: string; color?: string; testId: string }) {
  return (
    <Center mih="50vh" data-testid={testId}>
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon size={64} radius="xl" variant="light" color={color}>
          {icon}
        </ThemeIcon>
        <Text fz="xl" fw={700}>
          {title}
        </Text>
        {text && <Text c="dimmed">{text}</Text>}
      </Stack>
    </Center>
  );
}

/** The results of a home search: three columns with selection and the actions on them. */
export function SearchResults({ searched, run, header }: { searched: HomeSelection | null; run: number; header: React.ReactNode }) {
  const grants = useSession((s) => s.grants) ?? [];
  const navigate = useNavigate();
  const result = useHomeSearch(searched, run);
  const months = useHomeMonths();
  const [families, setFamilies] = useState<Set<string>>(new Set());
  const [moduleSel, setModuleSel] = useState<Set<string>>(new Set());
  const [clusterSel, setClusterSel] = useState<Set<string>>(new Set());
  const [familyModal, setFamilyModal] = useState(false);
  const [moduleModal, setModuleModal] = useState<{ defaults: ModuleDefaults; newFamilyFlow: boolean } | null>(null);
  const [clusterModal, setClusterModal] = useState(false);
  const [deleting, setDeleting] = useState<{ kind: 'module' | 'cluster'; items: DeletableItem[] } | null>(null);

  const modules = useMemo(() => result.families.flatMap((f) => f.moduleList), [result.families]);
  // A new answer: selections that point at items no longer listed go.
  useEffect(() => {
    const familyNames = new Set(result.families.map((f) => f.macroFamily));
    const moduleKeys = new Set(modules.map(moduleKey));
    const clusterKeys = new Set(result.clusters.map(clusterKey));
    const keep = (known: Set<string>) => (s: Set<string>) => ([...s].every((k) => known.has(k)) ? s : new Set([...s].filter((k) => known.has(k))));
    setFamilies(keep(familyNames));
    setModuleSel(keep(moduleKeys));
    setClusterSel(keep(clusterKeys));
  }, [result.families, result.clusters, modules]);

  if (!searched) return <Welcome />;
  const monthId = searched.monthId!;
  const admin = isAdmin(grants);
  // Nothing is created in a closed month (its items are read-only); the server refuses it as well.
  const monthClosed = months.data?.find((m) => m.monthId === monthId)?.open === false;
  const mayCreate = !monthClosed && (admin || (searched.brand.length ? searched.brand.some((b) => canCreate(grants, { brand: b })) : canCreateAny(grants)));
  const createReason = monthClosed ? `${formatMonthId(monthId)} is closed: nothing can be created in it` : undefined;
  const selectedModules = modules.filter((m) => moduleSel.has(moduleKey(m)));
  const selectedClusters = result.clusters.filter((c) => clusterSel.has(clusterKey(c)));

  const openModules = (list: readonly ModuleListItem[], newTabForOne: boolean) => {
    if (list.length === 0) return;
    if (list.length > MAX_OPEN_MODULES) {
      flash(HOME_TEXTS.tooManyToOpen, 'warning');
      return;
    }
    if (list.length === 1 && newTabForOne) openInNewTab(moduleUrl(list[0]!));
    else navigate(modulesUrl(list));
  };
  const openClusters = (list: readonly ClusterListItem[]) => navigate(clustersUrl(list));

  let body: React.ReactNode;
  if (result.tooMany) {
    body = <Message icon={<IconAlertTriangle size={32} />} color="orange" title={HOME_TEXTS.tooMany} text={HOME_TEXTS.changeFilters} testId="too-many-results" />;
  } else if (result.loading) {
    const { modules: m, clusters: c } = result.counts;
    const big = m !== null && c !== null && m + c > BIG_SEARCH;
    body = (
      <Center mih="50vh" data-testid="search-loading">
        <Stack align="center" gap="sm">
          <Loader />
          <Text c="dimmed" fz="sm">
            {m !== null && c !== null ? `Loading ${m.toLocaleString('it-IT')} modules and ${c.toLocaleString('it-IT')} clusters…` : 'Searching…'}
          </Text>
          {big && (
            <Alert variant="light" color="yellow" py={6}>
              <Text fz="xs">This is a large search: it may take a moment.</Text>
            </Alert>
          )}
        </Stack>
      </Center>
    );
  } else if (result.failed) {
    body = <Message icon={<IconAlertTriangle size={32} />} color="red" title={HOME_TEXTS.failed} testId="search-failed" />;
  } else if (modules.length === 0 && result.clusters.length === 0) {
    body = <Message icon={<IconMoodEmpty size={32} />} title={HOME_TEXTS.noResults} testId="no-results" />;
  } else {
    body = (
      <SimpleGrid cols={3} spacing="md" style={{ flex: 1, minHeight: 0 }} data-testid="result-columns">
        <FamilyColumn
          families={result.families}
          selected={families}
          onSelectedChange={setFamilies}
          canCreate={!monthClosed && (admin || canCreateAny(grants))}
          {...(createReason ? { createDisabledReason: createReason } : {})}
          onCreate={() => setFamilyModal(true)}
          onOpen={() => openModules(result.families.filter((f) => families.has(f.macroFamily)).flatMap((f) => f.moduleList), false)}
        />
        <ModuleColumn
          modules={modules}
          grants={grants}
          selected={moduleSel}
          onSelectedChange={setModuleSel}
          canCreate={mayCreate}
          {...(createReason ? { createDisabledReason: createReason } : {})}
          canDeleteSelection={selectedModules.some((m) => canDelete(grants, { brand: m.brand, zones: m.starZones }))}
          onOpen={() => openModules(selectedModules, true)}
          onDelete={() => setDeleting({ kind: 'module', items: selectedModules.map((m) => ({ key: m.moduleName, label: m.moduleLabel })) })}
          onCreate={() =>
            setModuleModal({
              newFamilyFlow: false,
              defaults: {
                macroFamily: families.size === 1 ? [...families][0]! : null,
                brand: single(searched.brand),
                collection: single(searched.collection),
                starZones: searched.starsZone,
                planningChannel: single(searched.planningChannel),
              },
            })
          }
          onMassiveEdit={() => {
            storeMassiveEditSelection(monthId, selectedModules);
            navigate('/massive-edit-selected-wi');
          }}
        />
        <ClusterColumn
          clusters={result.clusters}
          grants={grants}
          selected={clusterSel}
          onSelectedChange={setClusterSel}
          canCreate={mayCreate}
          {...(createReason ? { createDisabledReason: createReason } : {})}
          canDeleteSelection={selectedClusters.some((c) => canDelete(grants, { brand: c.brandCode, zones: c.starZones }))}
          onOpen={() => openClusters(selectedClusters)}
          onDelete={() => setDeleting({ kind: 'cluster', items: selectedClusters.map((c) => ({ key: c.clusterId, label: c.clusterLabel })) })}
          onCreate={() => setClusterModal(true)}
        />
      </SimpleGrid>
    );
  }

  return (
    <Stack gap="md" h="calc(100dvh - var(--app-shell-header-offset, 64px) - 2 * var(--mantine-spacing-xl))" mih={520}>
      <Group justify="space-between" wrap="nowrap">
        <Box style={{ minWidth: 0, flex: 1 }}>{header}</Box>
        {result.refreshing && !result.loading && <Loader size="xs" />}
        {mayCreate && (modules.length === 0 && result.clusters.length === 0) && !result.loading && !result.tooMany && (
          <Group gap="xs">
            <DisabledReason reason={!canCreateAny(grants) && 'You need the create right'}>
              <Button size="xs" variant="light" onClick={() => setFamilyModal(true)}>
                Create family
              </Button>
            </DisabledReason>
            <Button size="xs" variant="light" onClick={() => setModuleModal({ newFamilyFlow: false, defaults: { brand: single(searched.brand), collection: single(searched.collection), starZones: searched.starsZone } })}>
              Create module
            </Button>
            <Button size="xs" variant="light" onClick={() => setClusterModal(true)}>
              Create cluster
            </Button>
          </Group>
        )}
      </Group>
      {body}
      <CreateFamilyModal
        opened={familyModal}
        onClose={() => setFamilyModal(false)}
        onCreated={(macroFamily) => {
          setFamilyModal(false);
          setModuleModal({
            newFamilyFlow: true,
            defaults: { macroFamily, brand: single(searched.brand), collection: single(searched.collection), starZones: searched.starsZone, planningChannel: single(searched.planningChannel) },
          });
        }}
      />
      {moduleModal ? (
        <Suspense fallback={null}>
          <CreateModuleModal opened onClose={() => setModuleModal(null)} monthId={monthId} defaults={moduleModal.defaults} newFamilyFlow={moduleModal.newFamilyFlow} />
        </Suspense>
      ) : null}
      <CreateClusterModal
        opened={clusterModal}
        onClose={() => setClusterModal(false)}
        monthId={monthId}
        defaults={{ brand: single(searched.brand), collection: single(searched.collection), starZones: searched.starsZone }}
      />
      <DeleteItemsModal
        opened={!!deleting}
        kind={deleting?.kind ?? 'module'}
        items={deleting?.items ?? []}
        searchedMonth={monthId}
        onClose={() => setDeleting(null)}
        onDeleted={() => {
          if (deleting?.kind === 'module') setModuleSel(new Set());
          else setClusterSel(new Set());
          setDeleting(null);
        }}
      />
    </Stack>
  );
}
