// replaced below
