import { NumberInput, SimpleGrid } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { CREATION_TEXTS, FIELD_RULES, moduleFormErrors, type ModuleFormValues } from '@bo/shared/creation';
import { canCreate, isAdmin } from '@bo/shared/permissions';
import { flash } from '@/components/ui/flash';
import { PagedSelect } from '@/components/ui/paged-select';
import { NO_GRANTS, useSession } from '@/lib/session';
import { moduleUrl } from '@/lib/editor-urls';
import { checkModuleExists } from '../api/check-module-exists';
import { createModule } from '../api/create-module';
import { useInitialFilters } from '../api/get-initial-filters';
import { useMacroFamilies } from '../api/get-macro-families';
import { HOME_RESULTS_KEY } from '../api/home-results';
import { useLegoStatus } from '../hooks/use-lego-status';
import { countedFields, CountedTextarea, CountedTextInput, CreationModal, useCreationSubmit } from './creation-modal';

export interface ModuleDefaults {
  macroFamily?: string | null;
  brand?: string | null;
  collection?: string | null;
  starZones?: string[];
  planningChannel?: string | null;
}

const EMPTY: ModuleFormValues = { macroFamily: null, collection: null, brand: null, starZones: [], moduleName: '', moduleLabel: '', moduleDescription: '', initialSize: null };

/**
 * Create module (part 1 §4, §5): family, collection, brand, at least one Stars Zone, name (≤ 24, no
 * spaces or special characters), label (≤ 40, no special characters), description (≤ 100), initial
 * size (≥ 0). After the existence check an admin, or the new-family flow, saves it and goes to /module;
 * anyone else saves it without the initial size and the search is refreshed. On the module page
 * (`onCreated`) the new module is added to the page.
 */
export function CreateModuleModal({
  opened,
  onClose,
  monthId,
  defaults,
  newFamilyFlow,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  monthId: string;
  defaults: ModuleDefaults;
  newFamilyFlow: boolean;
  /** The module page's use: the new module joins the page instead of the home flow's navigation. */
  onCreated?: (created: { moduleName: string; monthId: string }) => Promise<void> | void;
}) {
  const grants = useSession((s) => s.grants) ?? NO_GRANTS;
  const admin = isAdmin(grants);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Closed, it asks nothing: on the module page the popup is mounted from the start and its lists would
  // compete with the page's modules call (home has them cached already).
  const initial = useInitialFilters(opened);
  const families = useMacroFamilies(opened);
  const [values, setValues] = useState<ModuleFormValues>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<keyof ModuleFormValues, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const { busy, serverError, setServerError, run } = useCreationSubmit();

  useEffect(() => {
    if (!opened) return;
    setValues({
      ...EMPTY,
      macroFamily: defaults.macroFamily ?? null,
      brand: defaults.brand ?? null,
      collection: defaults.collection ?? null,
      starZones: defaults.starZones ?? [],
    });
    setTouched({});
    setSubmitted(false);
    setServerError(null);
    // The form is reset when the popup opens; `defaults` is a new object on each render of the opener.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset on open only, not when the opener re-renders
  }, [opened]);

  const brandOptions = useMemo(() => (initial.data?.brand ?? []).filter((b) => canCreate(grants, { brand: b.value })), [initial.data, grants]);
  const errors = moduleFormErrors(values);
  const show = (field: keyof ModuleFormValues) => (submitted || touched[field] ? errors[field] : undefined);
  const set = <K extends keyof ModuleFormValues>(field: K, value: ModuleFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
    setServerError(null);
  };
  const lego = useLegoStatus(opened ? monthId : null, values.brand, values.collection);
  const counted = countedFields<'moduleName' | 'moduleLabel' | 'moduleDescription'>({ values, errors, show, set });

  const submit = async () => {
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    const body = {
      moduleName: values.moduleName,
      moduleLabel: values.moduleLabel,
      moduleDescription: values.moduleDescription,
      monthId,
    };
    const toEditor = admin || newFamilyFlow;
    await run(async () => {
      await checkModuleExists(body);
      const created = await createModule({
        ...body,
        macroFamily: values.macroFamily!,
        brand: values.brand!,
        collection: values.collection!,
        starZones: values.starZones,
        planningChannel: defaults.planningChannel ?? null,
        // Spec: only the admin and new-family flows keep the initial size; otherwise it is removed.
        ...(toEditor && values.initialSize !== null ? { initialSize: values.initialSize } : {}),
      });
      await queryClient.invalidateQueries({ queryKey: HOME_RESULTS_KEY });
      flash(`The module ${created.moduleName} has been created`);
      onClose();
      if (onCreated) await onCreated({ moduleName: created.moduleName, monthId: created.monthId });
      else if (toEditor) navigate(moduleUrl(created));
    }, CREATION_TEXTS.moduleExists);
  };

  return (
    <CreationModal
      opened={opened}
      onClose={onClose}
      busy={busy}
      title="Create module"
      monthId={monthId}
      lego={lego}
      size="lg"
      testId="create-module-modal"
      onSubmit={() => void submit()}
      errorTitle="Unable to create the module"
      serverError={serverError}
      submitLabel="Create module"
      submitTestId="submit-module"
    >
      <SimpleGrid cols={2} spacing="sm">
        <PagedSelect
          label="Macro family"
          placeholder="Choose a family"
          required
          data={(families.data ?? []).map((f) => ({ value: f.macroFamily, label: f.macroFamily }))}
          value={values.macroFamily}
          onChange={(v) => set('macroFamily', v)}
          error={show('macroFamily')}
          data-testid="module-family"
        />
        <PagedSelect
          label="Collection"
          placeholder="Choose a collection"
          required
          data={initial.data?.collection ?? []}
          value={values.collection}
          onChange={(v) => set('collection', v)}
          error={show('collection')}
          data-testid="module-collection"
        />
        <PagedSelect
          label="Brand"
          placeholder="Choose a brand"
          required
          data={brandOptions}
          value={values.brand}
          onChange={(v) => set('brand', v)}
          error={show('brand')}
          data-testid="module-brand"
        />
        <PagedSelect
          multiple
          label="Stars Zone"
          placeholder="Choose zones"
          required
          data={initial.data?.starsZone ?? []}
          value={values.starZones}
          onChange={(v) => set('starZones', v)}
          error={show('starZones')}
          data-testid="module-zones"
        />
        <CountedTextInput label="Module name" placeholder="e.g. AUR_SUN_PILOT_12" required {...counted('moduleName', FIELD_RULES.moduleName)} data-testid="module-name" />
        <CountedTextInput label="Module label" placeholder="e.g. Aurora Sun Pilot 12" required {...counted('moduleLabel', FIELD_RULES.moduleLabel)} data-testid="module-label" />
      </SimpleGrid>
      <CountedTextarea label="Description" {...counted('moduleDescription', FIELD_RULES.description, true)} data-testid="module-description" />
      <NumberInput
        label="Initial size"
        description={admin || newFamilyFlow ? 'How many SKUs the module should hold' : 'Kept only when an administrator creates the module'}
        allowDecimal={false}
        value={values.initialSize ?? ''}
        onChange={(v) => set('initialSize', typeof v === 'number' ? v : v === '' ? null : Number(v))}
        error={errors.initialSize}
        w={220}
        data-testid="module-initial-size"
      />
    </CreationModal>
  );
}
