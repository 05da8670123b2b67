// A file that came with a request (multipart): the HTTP layer reads it, actions store it.
export interface UploadedFile {
  fieldname: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}
