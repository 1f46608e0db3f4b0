import es from 'decap-cms-locales/dist/esm/es/index.js';

/**
 * decap-cms's interface in Mexican Spanish: its `es` locale (peninsular, in
 * "usted", with 86 of its 248 texts missing, which decap shows in English:
 * "Expand", "Copy Name", "Toggle preview"), completed and said as a Mexican
 * marketer reads it ("llénalo", "agregar", "¿Seguro que…?"). A test compares
 * its keys with decap's English ones (locale.test.ts). Decision 0051.
 */

type Phrases = { [key: string]: string | Phrases };

const MEXICAN: Phrases = {
  auth: {
    loginWithAzure: 'Iniciar sesión con Azure',
    loginWithForgejo: 'Iniciar sesión con Forgejo',
    errors: {
      email: 'Escribe tu correo electrónico.',
      password: 'Escribe tu contraseña.',
      identitySettings:
        'No se pudo leer la configuración de Identity. Con el backend git-gateway, activa los servicios Identity y Git Gateway.',
    },
  },
  app: {
    header: { media: 'Imágenes', quickAdd: 'Agregar' },
    app: {
      checkConfigYml: 'Revisa el archivo config.yml.',
      loadingConfig: 'Cargando la configuración…',
      waitingBackend: 'Esperando al servidor…',
    },
  },
  collection: {
    sidebar: { allCollections: 'Todas las colecciones', searchIn: 'Buscar en' },
    collectionTop: {
      newButtonAriaLabel: 'Agregar una entrada a %{collectionLabel}',
      viewAsList: 'Ver como lista',
      viewAsGrid: 'Ver como cuadrícula',
      searchResults: 'Resultados de «%{searchTerm}»',
      searchResultsInCollection: 'Resultados de «%{searchTerm}» en %{collection}',
      filterBy: 'Filtrar por',
      groupBy: 'Agrupar por',
    },
    entries: {
      loadingEntries: 'Cargando entradas…',
      cachingEntries: 'Guardando las entradas en la memoria del navegador…',
      longerLoading: 'Esto puede tardar unos minutos',
      noEntries: 'No hay entradas',
      unpublishedHeader: 'Entradas sin publicar',
    },
    groups: { other: 'Otros', negateLabel: 'Sin %{label}' },
  },
  editor: {
    editorControl: { field: { widgetLabel: 'campo %{widgetLabel}' } },
    editorControlPane: {
      widget: {
        // A field's error as the build says it: its label, then the rule in the build's words.
        regexPattern: '%{fieldLabel}: %{pattern}',
        invalidPath: '«%{path}» no es una ruta válida',
        pathExists: 'La ruta «%{path}» ya existe',
        rangeMin: '%{fieldLabel} debe tener por lo menos %{minCount} elemento(s).',
        rangeMax: '%{fieldLabel} debe tener %{maxCount} elemento(s) o menos.',
      },
      i18n: {
        writingInLocale: 'Escribiendo en %{locale}',
        copyFromLocale: 'Llenar desde otro idioma',
        copyFromLocaleConfirm: '¿Quieres llenar los datos desde %{locale}?\nSe reemplaza todo lo que hay ahora.',
      },
    },
    editor: {
      onLeavePage: '¿Seguro que quieres salir de esta página?',
      onUpdatingWithUnsavedChanges: 'Tienes cambios sin guardar: guárdalos antes de cambiar el estado.',
      onPublishingNotReady: 'Cambia el estado a «Listo» antes de publicar.',
      onPublishingWithUnsavedChanges: 'Tienes cambios sin guardar: guárdalos antes de publicar.',
      onPublishing: '¿Seguro que quieres publicar esta entrada?',
      onUnpublishing: '¿Seguro que quieres retirar esta entrada?',
      onDeleteWithUnsavedChanges:
        '¿Seguro que quieres borrar esta entrada publicada y los cambios sin guardar de esta sesión?',
      onDeletePublishedEntry: '¿Seguro que quieres borrar esta entrada publicada?',
      onDeleteUnpublishedChangesWithUnsavedChanges:
        'Se borrarán los cambios sin publicar de esta entrada y los cambios sin guardar de esta sesión. ¿Quieres borrarlos?',
      onDeleteUnpublishedChanges: 'Se borrarán todos los cambios sin publicar de esta entrada. ¿Quieres borrarlos?',
      loadingEntry: 'Cargando la entrada…',
      confirmLoadBackup: 'Hay una copia guardada en este navegador de esta entrada. ¿Quieres usarla?',
    },
    editorInterface: {
      toggleI18n: 'Mostrar u ocultar los idiomas',
      togglePreview: 'Mostrar u ocultar la vista previa',
      toggleScrollSync: 'Desplazar el formulario y la vista previa juntos',
      toggleNotes: 'Mostrar u ocultar las notas',
    },
    editorNotesPane: {
      title: 'Notas',
      emptyState: 'Todavía no hay notas. Escribe la primera abajo.',
      addNote: 'Agregar nota',
      addPlaceholder: 'Escribe una nota…',
      editPlaceholder: 'Corrige tu nota…',
      save: 'Guardar',
      cancel: 'Cancelar',
      edit: 'Editar',
      delete: 'Borrar',
      resolve: 'Marcar como resuelta',
      unresolve: 'Volver a abrir',
      confirmDelete: '¿Seguro que quieres borrar esta nota?',
      shortcut: 'Con Ctrl+Enter agregas la nota más rápido',
    },
    editorToolbar: {
      publishing: 'Publicando…',
      unpublishing: 'Retirando…',
      saving: 'Guardando…',
      deleting: 'Borrando…',
      updating: 'Actualizando…',
      publishAndCreateNew: 'Publicar y agregar otra',
      deleteUnpublishedChanges: 'Borrar los cambios sin publicar',
      deleteUnpublishedEntry: 'Borrar la entrada sin publicar',
      deletePublishedEntry: 'Borrar la entrada publicada',
      deleteEntry: 'Borrar la entrada',
      unsavedChanges: 'Cambios sin guardar',
      statusInfoTooltipDraft:
        'La entrada es un borrador. Para terminarla y mandarla a revisión, cambia su estado a «En revisión».',
      statusInfoTooltipInReview:
        'La entrada está en revisión: no hace falta nada más. Todavía puedes hacerle cambios mientras tanto.',
      deployPreviewPendingButtonLabel: 'Revisar la vista previa',
      deployPreviewButtonLabel: 'Ver la vista previa',
      deployButtonLabel: 'Ver en el sitio',
    },
    editorWidgets: {
      markdown: {
        bold: 'Negritas',
        italic: 'Cursivas',
        strikethrough: 'Tachado',
        code: 'Código',
        link: 'Enlace',
        linkPrompt: 'Escribe la dirección del enlace',
        headings: 'Títulos',
        quote: 'Cita',
        bulletedList: 'Lista con viñetas',
        numberedList: 'Lista numerada',
        addComponent: 'Agregar componente',
        toggleMode: { rich: 'Cambiar a texto enriquecido', markdown: 'Cambiar a Markdown' },
      },
      image: {
        chooseMultiple: 'Elige imágenes',
        chooseUrl: 'Insertar desde una dirección',
        replaceUrl: 'Cambiar por una dirección',
        promptUrl: 'Escribe la dirección de la imagen',
        addMore: 'Agregar más imágenes',
        removeAll: 'Quitar todas las imágenes',
      },
      file: {
        choose: 'Elige un archivo',
        remove: 'Quitar el archivo',
        chooseUrl: 'Insertar desde una dirección',
        chooseMultiple: 'Elige archivos',
        replaceUrl: 'Cambiar por una dirección',
        promptUrl: 'Escribe la dirección del archivo',
        addMore: 'Agregar más archivos',
        removeAll: 'Quitar todos los archivos',
      },
      datetime: { setToNow: 'Poner la fecha y hora de ahora en %{fieldLabel}' },
      list: { add: 'Agregar %{item}', addType: 'Agregar %{item}' },
      object: { expand: 'Mostrar', collapse: 'Ocultar' },
    },
  },
  mediaLibrary: {
    mediaLibraryCard: {
      copy: 'Copiar',
      copyUrl: 'Copiar la dirección',
      copyPath: 'Copiar la ruta',
      copyName: 'Copiar el nombre',
      copied: 'Copiado',
    },
    mediaLibrary: {
      onDelete: '¿Seguro que quieres borrar el archivo seleccionado?',
      fileTooLarge: 'El archivo pesa demasiado.\nEl máximo es de %{size} kB.',
    },
    mediaLibraryModal: {
      loading: 'Cargando…',
      search: 'Buscar…',
      uploading: 'Subiendo…',
      upload: 'Subir una imagen',
      deleting: 'Borrando…',
      deleteSelected: 'Borrar la selección',
      close: 'Cerrar',
    },
  },
  ui: {
    errorBoundary: {
      details: 'Ocurrió un error. Por favor, ',
      reportIt: 'avísanos.',
      privacyWarning:
        'El reporte se llena con el mensaje de error y datos para depurarlo.\nRevisa que todo sea correcto y quita cualquier dato sensible.',
      recoveredEntry: {
        warning: '¡Copia y pega esto en otro lado antes de salir de esta página!',
      },
    },
    settingsDropdown: { account: 'Opciones de la cuenta' },
    toast: {
      onFailToLoadEntries: 'No se pudo cargar la entrada: %{details}',
      onFailToLoadDeployPreview: 'No se pudo cargar la vista previa: %{details}',
      onFailToPersist: 'No se pudo guardar la entrada: %{details}',
      onFailToDelete: 'No se pudo borrar la entrada: %{details}',
      onFailToUpdateStatus: 'No se pudo cambiar el estado: %{details}',
      missingRequiredField: 'Falta un campo obligatorio: llénalo antes de guardar.',
      onFailToPublishEntry: 'No se pudo publicar: %{details}',
      onFailToUnpublishEntry: 'No se pudo retirar la entrada: %{details}',
      entryUpdated: 'Se cambió el estado de la entrada',
      onDeleteUnpublishedChanges: 'Se borraron los cambios sin publicar',
      noteAdded: 'Nota agregada',
      onFailToAddNote: 'No se pudo agregar la nota: %{details}',
      noteUpdated: 'Nota actualizada',
      onFailToUpdateNote: 'No se pudo actualizar la nota: %{details}',
      noteDeleted: 'Nota borrada',
      onFailToDeleteNote: 'No se pudo borrar la nota: %{details}',
      noteResolved: 'Nota resuelta',
      noteReopened: 'Nota abierta de nuevo',
      onFailToToggleNote: 'No se pudo cambiar la nota: %{details}',
      onLoggedOut: 'Tu sesión se cerró: guarda una copia de lo que tengas y vuelve a iniciar sesión.',
      onBackendDown: 'El servicio para guardar tiene una falla. Consulta %{details} para saber más.',
    },
  },
  workflow: {
    workflow: { loading: 'Cargando las entradas del flujo editorial' },
    workflowList: {
      onDeleteEntry: '¿Seguro que quieres borrar esta entrada?',
      onPublishingNotReadyEntry:
        'Solo se publican las entradas con estado «Listo». Arrastra la tarjeta a la columna «Listo» para publicarla.',
      onPublishEntry: '¿Seguro que quieres publicar esta entrada?',
    },
  },
};

/** `base` with `over`'s texts in place of its own, at every depth. */
function merged(base: Phrases, over: Phrases): Phrases {
  const result: Phrases = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = result[key];
    result[key] = typeof value === 'object' && typeof current === 'object' ? merged(current, value) : value;
  }
  return result;
}

/** What `CMS.registerLocale('es', …)` gets. */
export const EDITOR_PHRASES = merged(es as unknown as Phrases, MEXICAN);
