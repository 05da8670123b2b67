// A message's stored HTML changed without an edit (its link embeds arrived): no history entry, no edit time.
import type { Tx } from './db.js';

export async function setRenderedContent(tx: Tx, id: number, renderedContent: string, hasImage: boolean): Promise<void> {
  await tx.updateTable('messages').set({ rendered_content: renderedContent, has_image: hasImage ? 1 : 0 }).where('id', '=', id).execute();
}
