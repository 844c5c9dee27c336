import { applyMediaFields, newItem, planWrite } from '../items-write.js';
import {
  MIME_BY_EXTENSION,
  readImageSize,
  registerFile,
  sanitizeFileName,
} from '../media-files.js';
import { sanitizeSlug, uploadsUrl } from '../render.js';
import { RestError } from '../rest-error.js';
import type { Handler, Upload } from '../route-types.js';
import { siteYearMonth, toEpochSeconds } from '../site-dates.js';
import type { LangStore, StoredItem } from '../store.js';
import { created } from './items.js';

/**
 * `POST /cms/v2/media`: a raw file body with `Content-Disposition: attachment;
 * filename="x.png"` (fields in the query string), or multipart/form-data with a `file` part.
 * The upload format is "not shown" by the spec; this is what servers of this family accept.
 */
function fileNameFrom(upload: Upload): string {
  return sanitizeFileName(upload.filename ?? '');
}

function uniqueFileName(store: LangStore, base: string, directory: string, name: string): string {
  const dot = name.lastIndexOf('.');
  const stem = name.slice(0, dot);
  const extension = name.slice(dot);
  let candidate = name;
  for (
    let n = 1;
    store.files.has(new URL(uploadsUrl(base, store.settings.lang, directory + candidate)).pathname);
    n++
  ) {
    candidate = `${stem}-${n}${extension}`;
  }
  return candidate;
}

export const mediaCreateHandler: Handler = (context) => {
  const { store, site, user, params, request } = context;
  if (!user) {
    throw new RestError(
      401,
      'rest_cannot_create',
      'Sorry, you are not allowed to upload media on this site.',
    );
  }
  const upload = request.upload;
  if (!upload || upload.bytes.length === 0)
    throw new RestError(400, 'rest_upload_no_data', 'No data supplied.');
  if (upload.filename === undefined) {
    throw new RestError(
      400,
      'rest_upload_no_content_disposition',
      'No Content-Disposition supplied.',
    );
  }
  const name = fileNameFrom(upload);
  const extension = name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '';
  const mimeType = MIME_BY_EXTENSION[extension];
  if (!name || !mimeType) {
    throw new RestError(
      400,
      'rest_upload_sideload_error',
      'Sorry, you are not allowed to upload this file type.',
    );
  }
  const size = mimeType.startsWith('image/') ? readImageSize(upload.bytes) : undefined;
  if (mimeType.startsWith('image/') && !size) {
    throw new RestError(400, 'rest_upload_image_error', 'The uploaded file is not a valid image.');
  }
  const now = toEpochSeconds(site.clock());
  const [year, month] = siteYearMonth(now, store.settings.gmtOffset);
  const directory = `${year}/${month}/`;
  const fileName = uniqueFileName(
    store,
    site.base,
    directory,
    `${name.slice(0, name.lastIndexOf('.'))}.${extension}`,
  );
  const draft: StoredItem = {
    ...newItem('attachment', store.nextId, user, now),
    title: fileName.slice(0, fileName.lastIndexOf('.')),
    media: {
      file: directory + fileName,
      mimeType,
      width: size?.width,
      height: size?.height,
      altText: '',
      caption: '',
      description: '',
      // Intermediate sizes are listed only for generated images; uploads are served as sent.
      sizes: [],
    },
  };
  draft.slug = sanitizeSlug(draft.title);
  const patch = planWrite(site, store, draft, params);
  const item: StoredItem = { ...draft, ...patch, id: store.allocateId(), modifiedGmt: now };
  applyMediaFields(item, params);
  const bytes = upload.bytes;
  registerFile(store, site.base, item.media?.file ?? '', {
    owner: item.id,
    mimeType,
    lastModified: now,
    bytes: () => bytes,
  });
  store.add(item);
  return created(context, item);
};
