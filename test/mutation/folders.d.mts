export interface FolderSpec { mutate: string; only: string; scopes: Array<{ files: string[]; only: string }> }
export declare const FOLDERS: Record<'oauth' | 'api' | 'webhooks' | 'events', FolderSpec>;
export declare const FOLDER_NAMES: string[];
export declare function incrementalFileOf(folder: string): string;
export declare function scopeOf(folder: string, file: string): string;
