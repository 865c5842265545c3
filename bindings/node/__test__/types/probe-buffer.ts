// Must NOT compile under tsconfig.probe.json: it proves that @types/node is out of sight there
// (a global Buffer would be found otherwise).
export const leaked = Buffer.alloc(1)
