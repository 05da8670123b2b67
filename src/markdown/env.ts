// What rendering a message needs to know (looked up before rendering) and what it finds out.
import type { CustomEmojiTarget } from './emoji.js';
import type { CompiledLinkifier } from './linkifiers.js';
import type { Stash } from './fences.js';
import type { LinkEmbed } from '../lib/open-graph.js';

export interface MentionTarget { id: number; fullName: string }
export interface GroupTarget { id: number; name: string }
export interface ChannelTarget { id: number; name: string }

// An uploaded image's preview, made when it was uploaded.
export interface UploadPreview {
  width: number;
  height: number;
  animated: boolean;
  contentType: string;
  // The thumbnail's file name under /user_uploads/thumbnail/<path>/, or null while it is not made yet.
  thumbnail: string | null;
}

export interface RenderContext {
  usersByName: Map<string, MentionTarget[]>; // lower-cased full name → users
  usersById: Map<number, MentionTarget>;
  groupsByName: Map<string, GroupTarget>;
  channelsByName: Map<string, ChannelTarget>;
  realmEmoji?: Map<string, CustomEmojiTarget>; // active custom emoji by name
  linkifiers?: CompiledLinkifier[]; // in the order they apply
  // The organization's address (no final slash): links into it are made relative.
  realmUrl?: string;
  translateEmoticons?: boolean;
  defaultCodeBlockLanguage?: string | null;
  // Inline previews of linked images (inline_image_preview).
  imagePreviews?: boolean;
  // Uploaded images by path (after /user_uploads/), for their previews.
  uploads?: Map<string, UploadPreview>;
  // Embeds of links to other sites (inline_url_embed_preview; never for bots): links not in `linkEmbeds` are
  // listed in `linksForPreview` to be fetched after the send; null marks a link that has none.
  embedPreviews?: boolean;
  linkEmbeds?: Map<string, LinkEmbed | null>;
}

export interface Rendered {
  html: string;
  mentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
  hasLink: boolean;
  hasImage: boolean;
  isMeMessage: boolean;
  // Links to other sites whose embeds may be fetched after the send (when the organization allows it).
  linksForPreview: string[];
}

export interface RenderEnv {
  ctx: RenderContext;
  out: Rendered;
  stash: Stash;
}
