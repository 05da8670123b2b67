declare module 'virtual:emoji-groups' {
  const groups: { label: string; codes: string }[];
  export default groups;
}
