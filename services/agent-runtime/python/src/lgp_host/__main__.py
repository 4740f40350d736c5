from lgp_host.main import main

main()
